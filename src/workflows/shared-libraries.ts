/**
 * Loaded once per worker and shared by every run (see PRELOADED_MODULES). Naming the package in the preload list
 * does not work: the bundler drops an unused `require('zod')`, and would load zod's CommonJS build besides, while
 * the workflows import its ES build. Importing it here, as the workflows do, puts the same modules in the shared
 * cache.
 */
import * as zod from 'zod';

// The SDK freezes shared modules and globals once this module has run. zod completes its global config (default
// locale, memoizer) when the first schema is built, so build and use one now, while that config can still change.
zod.z.object({ text: zod.z.string() }).safeParse({ text: 1 });

export const sharedLibraries = { zod };
