/**
 * Why a profile asked for (TEMPORAL_PROFILE) cannot be read: `@temporalio/envconfig` says only "Profile 'prod' not
 * found in config data", also when the file it was to be read from does not exist, which is the commoner mistake
 * (a typo in TEMPORAL_CONFIG_FILE, a file not mounted). A missing file is fine without a profile, as for Temporal's
 * CLI and SDKs, when the environment says where Temporal is (TEMPORAL_ADDRESS); a file named and missing with
 * nothing else said would have meant localhost, quietly (missingNamedFile).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadClientConfig } from '@temporalio/envconfig';

/** The file envconfig reads: TEMPORAL_CONFIG_FILE, else the platform's default (as envconfig's own lookup does). */
export function configFilePath(vars: Record<string, string>): { file: string | undefined; named: boolean } {
  if (vars.TEMPORAL_CONFIG_FILE) return { file: vars.TEMPORAL_CONFIG_FILE, named: true };
  return { file: defaultConfigDir(vars) && path.join(defaultConfigDir(vars)!, 'temporalio', 'temporal.toml'), named: false };
}

function defaultConfigDir(vars: Record<string, string>): string | undefined {
  switch (os.platform()) {
    case 'win32':
      return vars.APPDATA || undefined;
    case 'darwin':
      return vars.HOME ? path.join(vars.HOME, 'Library', 'Application Support') : undefined;
    default: {
      const xdg = vars.XDG_CONFIG_HOME;
      if (xdg) return path.isAbsolute(xdg) ? xdg : undefined;
      return vars.HOME ? path.join(vars.HOME, '.config') : undefined;
    }
  }
}

/**
 * The problem with a TEMPORAL_CONFIG_FILE that does not exist when neither a profile nor TEMPORAL_ADDRESS is set: the
 * file was where Temporal was to be found, and without it a worker would look on localhost and wait there.
 */
export function missingNamedFile(vars: Record<string, string>): { message: string; settings: string[] } | undefined {
  const { file, named } = configFilePath(vars);
  if (!named || vars.TEMPORAL_PROFILE || vars.TEMPORAL_ADDRESS || existsSync(file!)) return undefined;
  return {
    message: `the Temporal config file ${file} (TEMPORAL_CONFIG_FILE) does not exist, and TEMPORAL_ADDRESS is not set, so nothing says where Temporal is.`,
    settings: ['TEMPORAL_CONFIG_FILE', 'TEMPORAL_ADDRESS'],
  };
}

/** The problem with reading `profile`, and the settings that decide it. */
export function missingProfile(vars: Record<string, string>, profile: string): { message: string; settings: string[] } {
  const { file, named } = configFilePath(vars);
  const wanted = `profile "${profile}" (TEMPORAL_PROFILE)`;
  if (named && !existsSync(file!)) {
    return {
      message: `the Temporal config file ${file} (TEMPORAL_CONFIG_FILE) does not exist, so ${wanted} cannot be read from it.`,
      settings: ['TEMPORAL_CONFIG_FILE'],
    };
  }
  if (!named && (!file || !existsSync(file))) {
    const where = file ? `there is none at ${file}, the default location` : 'there is no default location (HOME is not set)';
    return {
      message: `${wanted} is read from the Temporal config file, and ${where}.`,
      settings: ['TEMPORAL_CONFIG_FILE', 'TEMPORAL_PROFILE'],
    };
  }
  const present = profileNames(vars);
  const has = present.length ? `; it has ${present.map((name) => `"${name}"`).join(', ')}` : '; it has none';
  return { message: `the Temporal config file ${file} has no ${wanted}${has}.`, settings: ['TEMPORAL_PROFILE', 'TEMPORAL_CONFIG_FILE'] };
}

/** The profiles the file defines (their names only: their contents may hold keys). */
function profileNames(vars: Record<string, string>): string[] {
  try {
    return Object.keys(loadClientConfig({ overrideEnvVars: vars }).profiles);
  } catch {
    return [];
  }
}
