import { html } from 'htm/preact';
import { render } from 'preact';
import { App } from './app.js';
import { showHiddenCharacters } from './visible-text.js';

const root = document.getElementById('app');
root.replaceChildren(); // drop the <noscript> fallback before Preact takes over
showHiddenCharacters();
render(html`<${App} />`, root);
