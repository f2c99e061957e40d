import { SURFACE_B } from '../surface';
import { B, ListMembersPageB } from './schemas';
import { leadListRoutes } from './surface-routes';

/** Lead lists on Surface B (X-API-Key, camelCase): the domain's values as they are. */
export const leadListRoutesB = leadListRoutes({ surface: SURFACE_B, schemas: B, membersPage: ListMembersPageB, list: (l) => l, member: (m) => m, addResult: (r) => r });
