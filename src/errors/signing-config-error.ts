import { HitlError } from './hitl-error.js';

const NAME = 'SigningConfigError';

/**
 * A signing key, a key set (JWKS) or a trust configuration that cannot be used: malformed JSON, a key of an
 * unsupported type, a duplicate key id. Raised where the configuration is read (process start, `hitl sign`), never
 * inside a workflow, which receives configuration already validated.
 */
export class SigningConfigError extends HitlError {
  override readonly name = NAME;
  readonly code = 'signing_config_invalid';

  static isInstance(error: unknown): error is SigningConfigError {
    return HitlError.hasName(error, NAME);
  }
}
