/**
 * Variables named HITL_* that are not settings. The environment holds many variables that are not ours, and those are
 * left alone; but a HITL_ one that is not a setting is a misspelt one (HITL_ENCRYPTIONKEYS, HITL_FOUREYES,
 * HITL_API_TOKENS_PATH), which would leave encryption, signed decisions or four eyes off without a word. Each is
 * refused, naming the setting it is nearest to.
 */
import { distance } from 'fastest-levenshtein';

/**
 * HITL_ variables that are not settings of a process but are read elsewhere, and may be exported in a shell that
 * also starts one (child processes of the tests inherit them): by the test helpers, the property tests, the
 * Python scripts and deploy/temporal-setup.sh.
 */
export const OTHER_HITL_VARIABLES = [
  'HITL_RECORD_HISTORIES',
  'HITL_ZOD_PROPERTY_RUNS',
  'HITL_JSON_SCHEMA_PROPERTY_RUNS',
  'HITL_PYTHON_VENV',
  'HITL_SEARCH_ATTRIBUTES',
] as const;

/** One line per HITL_ variable among `names` that is neither a setting nor one of OTHER_HITL_VARIABLES. */
export function unknownHitlVariables(names: string[], settings: readonly string[]): string[] {
  const known = new Set<string>([...settings, ...OTHER_HITL_VARIABLES]);
  return names
    .filter((name) => name.toUpperCase().startsWith('HITL_') && !known.has(name))
    .map((name) => {
      const meant = nearestSetting(name, settings);
      return meant
        ? `✖ ${name} is not a setting; did you mean ${meant}?`
        : `✖ ${name} is not a setting (README, "Configuration", lists them)`;
    });
}

/**
 * The setting `name` was most likely meant to be: compared with underscores removed and case folded (so
 * HITL_SIGNINGKEY and hitl_signing_key are HITL_SIGNING_KEY), by edit distance, ties going to the one nearest as
 * written (HITL_API_TOKENS_PATH: HITL_API_TOKENS_FILE, not HITL_API_TOKENS). None when even the nearest differs in
 * more than a third of the letters after HITL_: a guess that far off would mislead.
 */
export function nearestSetting(name: string, settings: readonly string[]): string | undefined {
  const folded = fold(name);
  let best: { setting: string; distance: number; written: number } | undefined;
  for (const setting of settings) {
    const apart = distance(folded, fold(setting));
    const written = distance(name.toUpperCase(), setting);
    if (!best || apart < best.distance || (apart === best.distance && written < best.written)) best = { setting, distance: apart, written };
  }
  return best && best.distance <= Math.max(2, Math.floor(fold(best.setting).replace(/^HITL/, '').length / 3)) ? best.setting : undefined;
}

const fold = (name: string) => name.toUpperCase().replaceAll('_', '');
