/**
 * The door of platform: its routes and the committed OpenAPI document they serve.
 * Files of this folder import each other directly, never through this file.
 */
export { committedOpenApi } from './committed-openapi';
export { registerPlatformRoutes } from './routes';
