export { registerBooksRoutes } from './routes';
