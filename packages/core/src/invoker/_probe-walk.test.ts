import { it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { filesToHide } from './files-to-hide.js';
it('walk', async () => {
  for (const rule of ['Read(**/*.pem)', 'Read(.env)', 'Write(**/*.lock)']) {
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const h = await filesToHide('/work/main', new PermissionPolicy({ deny: [rule] }), false, 'bash', 2_000_000);
      console.log(rule, (performance.now() - t0).toFixed(0), 'ms', h.unreadable.length, h.unwritable.length);
    }
  }
}, 120000);
