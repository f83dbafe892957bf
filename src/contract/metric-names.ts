/**
 * Our metrics' names, in one place for the worker (through the SDK's meters), the API (prom-client) and the Grafana
 * dashboard (deploy/grafana-dashboard.json). Counters end in `_total`, as Prometheus names them; the SDK's own
 * metrics keep its `temporal_` names.
 */
export const METRICS = {
  /** A gated call started waiting for a decision. Labels: tool. */
  approvalsRequested: 'hitl_approvals_requested_total',
  /** A pending call was decided by someone. Labels: tool, decision (approve, edit, reject, respond). */
  approvalsDecided: 'hitl_approvals_decided_total',
  /** A pending call's deadline passed. Labels: tool, decision (its onTimeout: approve, reject, fail). */
  approvalsTimedOut: 'hitl_approvals_timed_out_total',
  /** Seconds from the request to the decision (workflow time). Labels: tool, decision. */
  approvalDecisionSeconds: 'hitl_approval_decision_seconds',
  /** Tokens the model used. Labels: kind (prompt, completion), model. */
  modelTokens: 'hitl_model_tokens_total',
  /** Tool executions that failed (each failed attempt). Labels: tool. */
  toolFailures: 'hitl_tool_failures_total',
  /** Approvals waiting now, across all runs (from visibility, when scraped). Served by the API. */
  approvalsPending: 'hitl_approvals_pending',
  /** HTTP requests the API answered. Labels: method, route, status. */
  httpRequests: 'hitl_api_requests_total',
  /** Seconds the API took to answer. Labels: method, route. */
  httpRequestSeconds: 'hitl_api_request_duration_seconds',
} as const;

/** Decisions take seconds to days. */
export const DECISION_SECONDS_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 86400, 3 * 86400, 7 * 86400];

export const HISTOGRAM_BUCKETS = { [METRICS.approvalDecisionSeconds]: DECISION_SECONDS_BUCKETS } as const;
