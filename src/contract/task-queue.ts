/** Default task queue of the wire contract; `TEMPORAL_TASK_QUEUE` overrides it. */
export const DEFAULT_TASK_QUEUE = 'hitl-agent';
/** Workflow type name other services start by string. */
export const WORKFLOW_TYPE = 'agentWorkflow';
