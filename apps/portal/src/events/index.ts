/**
 * The door of the event feed: its route, and the sequencing of events.
 * Files of this folder import each other directly, never through this file.
 */

export { assignSequences } from './feed';
export { registerEventFeedRoutes } from './routes';
