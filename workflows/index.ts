/** Entry point the worker bundles: every workflow type, and nothing with I/O. */
export { campaignWorkflow } from './campaign/workflow';
