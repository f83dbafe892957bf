/**
 * The approval API as the page uses it. Paths are relative so the page also works behind a proxy that mounts the
 * API under a prefix. Every refusal becomes an ApiError carrying the server's `{error: {code, message}}`.
 */

export class ApiError extends Error {
  /** @param {number} status 0 when the server could not be reached @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const query = (params) => {
  const entries = Object.entries(params).filter(([, value]) => value);
  return entries.length ? `?${new URLSearchParams(entries)}` : '';
};

/** @param {string} token the bearer token the user pasted */
export function createApi(token) {
  /** The parsed body, and the response for its headers. */
  async function request(method, path, body) {
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'network', 'The approval API could not be reached.');
    }
    const data = await response.json().catch(() => undefined);
    if (!response.ok)
      throw new ApiError(response.status, data?.error?.code ?? `http_${response.status}`, data?.error?.message ?? response.statusText);
    return { data, response };
  }
  const call = async (method, path, body) => (await request(method, path, body)).data;
  const approval = (id, action) => `api/approvals/${encodeURIComponent(id)}/${action}`;

  /**
   * A run's Server-Sent Events, read with fetch: EventSource cannot send the bearer token, and a token in the URL
   * would end up in logs and history. Resolves to the streaming response.
   * @param {{from?: number, lastEventId?: string, signal: AbortSignal}} options
   */
  async function events(workflowId, { from, lastEventId, signal }) {
    let response;
    try {
      response = await fetch(
        `api/runs/${encodeURIComponent(workflowId)}/events${query({ from: from === undefined ? '' : String(from) })}`,
        {
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'text/event-stream',
            ...(lastEventId !== undefined && { 'last-event-id': lastEventId }),
          },
          signal,
        },
      );
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ApiError(0, 'network', 'The approval API could not be reached.');
    }
    if (!response.ok || !response.body) {
      const data = await response.json().catch(() => undefined);
      throw new ApiError(response.status, data?.error?.code ?? `http_${response.status}`, data?.error?.message ?? response.statusText);
    }
    return response;
  }

  return {
    me: () => call('GET', 'api/me'),
    tools: () => call('GET', 'api/tools'),
    /** One run's tools as it recorded them: MCP tools' schemas included. */
    runTools: (workflowId) => call('GET', `api/tools?run=${encodeURIComponent(workflowId)}`),
    /**
     * What waits, and how many waiting runs the server could not read (their calls are not in `items`).
     * @param {{agent?: string, tool?: string}} filters
     */
    approvals: async (filters) => {
      const { data, response } = await request('GET', `api/approvals${query(filters)}`);
      return { items: data, unreadableRuns: Number(response.headers.get('hitl-unreadable-runs') ?? 0) };
    },
    /** One pending call with its arguments whole (lists cut large ones to a preview). */
    approvalWhole: (id) => call('GET', `api/approvals/${encodeURIComponent(id)}`),
    run: (workflowId) => call('GET', `api/runs/${encodeURIComponent(workflowId)}`),
    events,
    approve: (id, body) => call('POST', approval(id, 'approve'), body),
    reject: (id, body) => call('POST', approval(id, 'reject'), body),
    edit: (id, body) => call('POST', approval(id, 'edit'), body),
    respond: (id, body) => call('POST', approval(id, 'respond'), body),
    /** Several decisions for one run: applied all together, or none. */
    decideMany: (workflowId, decisions) => call('POST', `api/runs/${encodeURIComponent(workflowId)}/decisions`, { decisions }),
  };
}
