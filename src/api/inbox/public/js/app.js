/** Sign-in first, then the inbox; a saved token from this tab signs in again after a reload. */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { createApi } from './api.js';
import { Inbox } from './inbox.js';
import { SignIn, forgetToken, saveToken, savedToken } from './sign-in.js';

export function App() {
  const [session, setSession] = useState(undefined);
  const [checking, setChecking] = useState(() => Boolean(savedToken()));
  const [notice, setNotice] = useState(undefined);

  useEffect(() => {
    const token = savedToken();
    if (!token) return;
    createApi(token)
      .me()
      .then(
        (identity) => setSession({ token, identity }),
        (error) => {
          if (error.status === 401) forgetToken();
          setNotice(
            error.status === 401
              ? 'Your saved token is no longer accepted. Sign in again.'
              : 'Could not check your saved token; sign in again.',
          );
        },
      )
      .finally(() => setChecking(false));
  }, []);

  if (checking) return html`<p class="loading" role="status">Signing you in…</p>`;
  if (!session) {
    return html`<${SignIn}
      notice=${notice}
      onSignedIn=${(token, identity) => {
        saveToken(token);
        setNotice(undefined);
        setSession({ token, identity });
      }}
    />`;
  }
  return html`<${Inbox}
    token=${session.token}
    identity=${session.identity}
    onSignOut=${(why) => {
      forgetToken();
      setNotice(why);
      setSession(undefined);
    }}
  />`;
}
