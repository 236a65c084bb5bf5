/**
 * The error of model configuration, raised by `provider/model` parsing in core and by every
 * model resolver (such as `@a3s-code/providers`'), so hosts catch one class whichever resolved.
 */
import { A3sError } from '@a3s-code/effect';

/** A model configuration value is missing or invalid. `key` names the setting or variable. */
export class ModelConfigurationError extends A3sError {
  /** The offending key, e.g. `A3S_MODEL`, `OPENAI_API_KEY`, `options.baseUrl`. */
  readonly key: string;
  constructor(key: string, problem: string) {
    super('MODEL_CONFIGURATION', `model configuration: ${key}: ${problem}`, { details: { key } });
    this.key = key;
  }
}
