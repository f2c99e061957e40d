// The egress client: see client.ts for what it guarantees and how to use it.
export { createEgress, DEFAULT_USER_AGENT, type Egress, type EgressFetch, type EgressLimits, type EgressOptions, type EgressRequestOptions, type EgressResponse, type EgressStatus } from './client';
export { EgressError, findEgressError, type EgressFailureReason } from './errors';
export { egressFor, egressOptionsFromConfig } from './for-config';
export { judgeAddress, type AddressPolicy } from './address-policy';
export type { Resolver, ResolvedAddress } from './guarded-agent';
