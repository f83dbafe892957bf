/** Workflow entry point for the worker bundle. */
export { agentWorkflow } from './agent-workflow.js';
export { storeWorkflow } from './store-workflow.js';
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
