import { projects } from './project';

/** The projects module's resources. */
export const projectsResources = [projects] as const;
