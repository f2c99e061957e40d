import { SURFACE_A } from '../surface';
import { addResultA, listA, memberA } from './present';
import { A, ListMembersPageA } from './schemas';
import { leadListRoutes } from './surface-routes';

/** Lead lists on Surface A (Bearer key, snake_case): the domain's values renamed by present.ts. */
export const leadListRoutesA = leadListRoutes({ surface: SURFACE_A, schemas: A, membersPage: ListMembersPageA, list: listA, member: memberA, addResult: addResultA });
