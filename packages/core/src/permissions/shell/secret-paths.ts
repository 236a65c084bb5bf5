/**
 * Where a user keeps credentials outside any workspace: `~/.ssh`, `~/.aws`, `~/.gnupg`,
 * `~/.kube`, `~/.netrc`, `~/.git-credentials`, `~/.docker/config.json`, the GitHub and Google
 * Cloud command-line tools' folders, and the like. A command line that names one (`cat
 * ~/.aws/credentials`, `base64 "$HOME/.ssh/id_ed25519"`, `< ~/.netrc`) reads what a prompt-injected
 * model would send away, so a rule naming commands (`Bash(cat:*)`) does not cover it: it asks.
 * Programs that read their own credentials (`git push`, `aws s3 ls`, `gh pr list`) name none.
 */
import { HOLE } from './shell-word.js';

// A credential file or folder, as the last part of a path or followed by more of it.
const SECRET =
  /\/\.(?:ssh|aws|gnupg|kube|azure|password-store|docker\/config\.json|netrc|git-credentials|pypirc|npmrc|config\/gh|config\/gcloud|local\/share\/keyrings)(?:\/|$)|^\/etc\/(?:shadow|gshadow|sudoers)(?:\/|$)/;

/**
 * True when the word `text` (after quote removal, `HOLE` where computed) names a place under a
 * home folder or the system where credentials are kept: a path from `~`, from a value computed at
 * run time (`$HOME/…`), absolute, or climbing out with `..`. A workspace file of the same name
 * (`.npmrc`, `./.aws/config`) is not one.
 */
export function namesSecret(text: string): boolean {
  if (!(text.startsWith('~') || text.startsWith(HOLE) || text.startsWith('/') || text.startsWith('..'))) return false;
  const path = text.startsWith('~') ? text.replace(/^~[^/]*/, '') : text;
  if (SECRET.test(path.startsWith('/') ? path : `/${path}`)) return true;
  // Under a home folder, a hidden or computed part (`~/.a*/credentials`, `$HOME/$F`) may be one.
  const home = text.startsWith('~') || text.startsWith(HOLE) || /^\/(?:home\/[^/]+|root|Users\/[^/]+)\//.test(text);
  if (!home) return false;
  return path
    .split('/')
    .some((part, i) => part.includes(HOLE) && !(i === 0 && text.startsWith(HOLE)) && /^[.\uE000]/.test(part));
}
