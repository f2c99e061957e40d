/** The department (function) ids of vocabulary/departments.json, for schemas and prompts. */
import departmentsData from './vocabulary/departments.json';

export const DEPARTMENT_IDS: readonly string[] = departmentsData.departments.map((d) => d.id);
