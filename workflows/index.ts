/** Entry point the worker bundles: every workflow type, and nothing with I/O. */
export { campaignWorkflow } from './campaign/workflow';
export { campaignReportWorkflow } from './reports/report-workflow';
export { campaignReportScheduleWorkflow } from './reports/schedule-workflow';
export { serviceEmailWorkflow } from './service-mail/workflow';
export { webhookDeliveryWorkflow } from './webhooks/delivery-workflow';
export { webhookDispatcherWorkflow } from './webhooks/dispatcher-workflow';
