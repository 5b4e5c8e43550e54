/**
 * The read engine's door: one direction, request → plan → SQL → JSON. The plan: `list-query`
 * (filters, order, page), `read-shape` (select, embed), `cursor`. The SQL from the plan:
 * `record-sql` (a shaped record's columns, embedded records once), `list-sql` (page, count),
 * `export-sql`. The JSON: `record-json` (a page's rows joined in Node, as `row_to_json` writes
 * them). No file here runs a statement: records-read.ts, export.ts and history-read.ts do.
 */
export { decodeCursor, encodeCursor, invalidCursor } from './cursor';
export { csvHeader, exportSql } from './export-sql';
export { type ListQuery, type OrderTerm, parseListQuery } from './list-query';
export { countSql, listSql } from './list-sql';
export { parseReadShape, type ReadAccess, type ReadShape, wholeRecord } from './read-shape';
export { RAW_TEXT, recordColumns } from './record-json';
export { getSql, namedColumns, selectList } from './record-sql';
