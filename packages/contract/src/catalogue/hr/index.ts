import { appraisals } from './appraisal';
import { attendances } from './attendance';
import { departments } from './department';
import { employees } from './employee';
import { employeeSkills } from './employee-skill';
import { employmentContracts } from './employment-contract';
import { expenseCategories } from './expense-category';
import { expenseReports } from './expense-report';
import { holidayLists } from './holiday-list';
import { jobApplicants } from './job-applicant';
import { jobOpenings } from './job-opening';
import { leaveAllocations } from './leave-allocation';
import { leaveRequests } from './leave-request';
import { leaveTypes } from './leave-type';
import { payrollRuns } from './payroll-run';
import { payslips } from './payslip';
import { positions } from './position';
import { salaryComponents } from './salary-component';
import { salaryStructures } from './salary-structure';
import { shiftAssignments } from './shift-assignment';
import { shiftTypes } from './shift-type';
import { skills } from './skill';
import { trainingEvents } from './training-event';

/** The hr module's resources. */
export const hrResources = [
  departments,
  positions,
  employees,
  expenseReports,
  expenseCategories,
  holidayLists,
  shiftTypes,
  shiftAssignments,
  employmentContracts,
  leaveTypes,
  leaveAllocations,
  leaveRequests,
  attendances,
  salaryComponents,
  salaryStructures,
  payrollRuns,
  payslips,
  appraisals,
  jobOpenings,
  jobApplicants,
  skills,
  employeeSkills,
  trainingEvents,
] as const;
