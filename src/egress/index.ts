// The egress client: see client.ts for what it guarantees and how to use it.
export { createEgress, DEFAULT_USER_AGENT, type Egress, type EgressFetch, type EgressLimits, type EgressOptions, type EgressRequestOptions, type EgressResponse, type EgressStatus } from './client';
export { EgressError, findEgressError, isPolicyRefusal, type EgressFailureReason } from './errors';
export { egressFor, egressOptionsFromConfig } from './for-config';
export { explainRefusal, judgeAddress, type AddressPolicy } from './address-policy';
export { isLoopbackName, judgeHost, type HostJudgement } from './url-policy';
export type { Resolver, ResolvedAddress } from './guarded-agent';
