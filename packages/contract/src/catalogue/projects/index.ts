import { activityTypes } from './activity-type';
import { deliverables } from './deliverable';
import { milestones } from './milestone';
import { planningResources } from './planning-resource';
import { projects } from './project';
import { projectBudgets } from './project-budget';
import { projectExpenses } from './project-expense';
import { projectIssues } from './project-issue';
import { projectMembers } from './project-member';
import { projectRisks } from './project-risk';
import { projectTemplates } from './project-template';
import { projectUpdates } from './project-update';
import { resourceAllocations } from './resource-allocation';
import { tasks } from './task';
import { taskStages } from './task-stage';
import { timesheets } from './timesheet';

/** The projects module's resources. */
export const projectsResources = [
  activityTypes,
  projectTemplates,
  projects,
  taskStages,
  milestones,
  tasks,
  timesheets,
  projectMembers,
  projectBudgets,
  projectExpenses,
  projectRisks,
  projectIssues,
  deliverables,
  projectUpdates,
  planningResources,
  resourceAllocations,
] as const;
