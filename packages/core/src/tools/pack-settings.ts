/**
 * Settings the configuration holds for tool packs, handed to each pack's `openSession`. Core only
 * carries them from the configuration layers to the packs; the pack that reads a setting owns
 * its precise type and checks it.
 */

/**
 * The `web` setting, read by the web tool pack (`@a3s-code/tools-web`, which types it precisely
 * as `WebToolsOptions`). `false` leaves `web_fetch` and `web_search` out; `true` or absent keeps
 * them with their defaults; an object configures them.
 */
export type WebSetting = boolean | WebSettings;

/** The outline of the `web` object (see `WebToolsOptions` in `@a3s-code/tools-web`). */
export interface WebSettings {
  /** Let the web tools reach loopback, private and link-local addresses. Default false. */
  readonly allowPrivateNetwork?: boolean;
  /** `web_fetch`: on by default; `false` leaves it out; an object configures it. */
  readonly fetch?: boolean | object;
  /** `web_search`: on by default; `false` leaves it out; an object configures it. */
  readonly search?: boolean | object;
}

/** The settings a session hands the packs it registers. */
export interface ToolPackSettings {
  /** The session's `web` setting, when one is configured. */
  readonly web?: WebSetting;
}
