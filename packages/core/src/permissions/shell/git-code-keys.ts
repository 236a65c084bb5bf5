/**
 * The git configuration keys whose value git runs as a program, or that make git read other
 * configuration or work on other files: one list for the shell judge (a `-c key=value` or a
 * `git config key value` with such a key may run anything) and for the guard that takes such
 * settings out of configuration files after a command (`invoker/git-config-guard.ts`).
 *
 * Keys are matched without regard to case, as git does for sections and names. Among them are
 * `trailer.<token>.cmd` and `.command` (run by `git interpret-trailers` and `git commit --trailer`),
 * `imap.tunnel` (`git imap-send`), `hook.<name>.command`, `tar.<format>.command` (`git archive`)
 * and `core.alternateRefsCommand`.
 */

/** Keys (as `git config --list` prints them, or as written after `-c`) whose value git may run, or that read other files. */
export const GIT_PROGRAM_KEYS =
  /^(?:alias\.|core\.(?:pager|sshcommand|fsmonitor|editor|hookspath|askpass|gitproxy|attributesfile|alternaterefscommand|worktree|bare)$|pager\.|diff\.|difftool\.|merge\.|mergetool\.|filter\.|credential|gpg\.|sequence\.editor$|uploadpack\.|receive\.|remote\.[^\n]*\.(?:uploadpack|receivepack|proxy|vcs)$|url\.|http\.|protocol\.|ssh\.|include|includeif\.|init\.templatedir$|interactive\.difffilter$|sendemail\.|web\.browser$|browser\.|help\.browser$|man\.|instaweb\.|submodule\.[^\n]*\.update$|safe\.|extensions\.|trailer\.[^\n]*\.(?:cmd|command)$|imap\.tunnel$|hook\.[^\n]*\.command$|tar\.[^\n]*\.command$|guitool\.|gui\.editor$)/i;

/**
 * Keys a command line may not set with `-c` (or `git config`) and stay judged by its words: the
 * keys of {@link GIT_PROGRAM_KEYS}, whole sections that choose where git fetches from, pushes to or
 * writes (`remote.`, `submodule.`, `push.`, `fetch.`, `transfer.`, `format.`), and whole sections
 * of which some key runs a program, so that a key git adds to them later is covered too.
 */
export const GIT_CODE_KEYS = new RegExp(
  `${GIT_PROGRAM_KEYS.source}|^(?:remote\\.|submodule\\.|push\\.|fetch\\.|transfer\\.|format\\.|trailer\\.|imap\\.|hook\\.|tar\\.|help\\.|gui\\.)`,
  'i',
);
