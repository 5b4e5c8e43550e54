export { installBooks } from './chart';
export { registerBooksRoutes } from './routes';
