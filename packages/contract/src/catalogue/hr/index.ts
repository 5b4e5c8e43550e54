import { employees } from './employee';
import { expenseReports } from './expense-report';

/** The hr module's resources. */
export const hr = [employees, expenseReports] as const;
