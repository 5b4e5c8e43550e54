import { departments } from './department';
import { employees } from './employee';
import { expenseReports } from './expense-report';
import { positions } from './position';

/** The hr module's resources. */
export const hrResources = [departments, positions, employees, expenseReports] as const;
