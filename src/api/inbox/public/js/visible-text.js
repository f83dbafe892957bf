/**
 * Text from outside shown so that nothing in it hides: each character the shared rule names (bidi controls, what
 * prints as nothing, tag characters outside a flag; src/contract/hidden-characters.js, which the CLI follows too)
 * appears as its escape, `\\u202e`. Newlines and tabs keep the layout. Every text the page renders goes through
 * here (showHiddenCharacters), so no component can forget it; JSON the page writes itself (highlighted arguments, the
 * edit form) goes through visibleJson, whose escapes are JSON's own: the text parses to the same value.
 */
import { options } from 'preact';
import { codePointEscape, revealHidden } from 'hidden-characters';

const keepLayout = (c) => (c === '\n' || c === '\t' ? c : codePointEscape(c));

/** @param {string} text */
export const visibleText = (text) => revealHidden(text, keepLayout);

/** @param {unknown} value */
export const visibleJson = (value) => visibleText(JSON.stringify(value, null, 2) ?? 'undefined');

/** Every text node the page renders shows its hidden characters (Preact's vnode hook sees each one as it is made). */
export function showHiddenCharacters() {
  const previous = options.vnode;
  options.vnode = (vnode) => {
    if (vnode.type === null && typeof vnode.props === 'string') vnode.props = visibleText(vnode.props);
    previous?.(vnode);
  };
}
