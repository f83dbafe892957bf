/**
 * Sign-in by pasting a bearer token. It is kept in sessionStorage: it survives a reload of this tab but not the
 * tab itself, and other tabs and sites never see it.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { createApi } from './api.js';
import { describeRefusal } from './refusals.js';

const TOKEN_KEY = 'hitl-inbox-token';
export const savedToken = () => sessionStorage.getItem(TOKEN_KEY);
export const saveToken = (token) => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

/** @param {{onSignedIn: (token: string, identity: object) => void, notice?: string}} props */
export function SignIn({ onSignedIn, notice }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const identity = await createApi(token.trim()).me();
      onSignedIn(token.trim(), identity);
    } catch (err) {
      setError(err.status === 401 ? 'That token was not accepted. Check that you pasted all of it.' : describeRefusal(err).headline);
      setBusy(false);
    }
  };

  return html`<main class="sign-in">
    <form class="card" onSubmit=${submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Approval inbox</h1>
      <p>Paste your API token to see the tool calls waiting for a human. It stays in this browser tab.</p>
      ${notice && html`<p class="notice" role="status">${notice}</p>`}
      <label for="token">API token</label>
      <input
        id="token"
        type="password"
        autocomplete="off"
        spellcheck="false"
        required
        value=${token}
        onInput=${(event) => setToken(event.currentTarget.value)}
      />
      ${error && html`<p class="refusal" role="alert">${error}</p>`}
      <button type="submit" class="primary" disabled=${busy}>Sign in</button>
    </form>
  </main>`;
}
