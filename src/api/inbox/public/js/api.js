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
  async function call(method, path, body) {
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
    return data;
  }
  const approval = (id, action) => `api/approvals/${encodeURIComponent(id)}/${action}`;

  return {
    me: () => call('GET', 'api/me'),
    tools: () => call('GET', 'api/tools'),
    /** @param {{agent?: string, tool?: string}} filters */
    approvals: (filters) => call('GET', `api/approvals${query(filters)}`),
    run: (workflowId) => call('GET', `api/runs/${encodeURIComponent(workflowId)}`),
    approve: (id, body) => call('POST', approval(id, 'approve'), body),
    reject: (id, body) => call('POST', approval(id, 'reject'), body),
    edit: (id, body) => call('POST', approval(id, 'edit'), body),
    respond: (id, body) => call('POST', approval(id, 'respond'), body),
    /** Several decisions for one run: applied all together, or none. */
    decideMany: (workflowId, decisions) => call('POST', `api/runs/${encodeURIComponent(workflowId)}/decisions`, { decisions }),
  };
}
