import { describe, expect, it } from 'vitest';
import { ActionLog, listActions } from '../../src/actions/log.js';
import { createRedactor } from '../../src/common/redact.js';
import { tempDatabases } from '../support/temp-db.js';

const database = tempDatabases('zw-action-log-');

describe('the write commands audit log', () => {
  it('stores a credential echoed in an id or a name redacted, like messages and details', () => {
    const canary = 'zw-canary-token-31f7a0c2e9';
    const db = database();
    const log = new ActionLog(db, createRedactor([canary]));
    log.record({
      command: 'firewall',
      action: 'rule.create',
      target: { type: 'firewall_rule', id: `rule-${canary}`, name: `named ${canary}` },
      zone: { id: `zone-${canary}`, name: `${canary}.example` },
      outcome: 'ok',
      message: `created with ${canary}`,
      detail: { echoed: canary },
    });
    const [row] = listActions(db);
    expect(row).toMatchObject({
      target: { type: 'firewall_rule', id: 'rule-[redacted]', name: 'named [redacted]' },
      zone: { id: 'zone-[redacted]', name: '[redacted].example' },
      message: 'created with [redacted]',
    });
    expect(JSON.stringify(db.prepare('SELECT * FROM actions').all())).not.toContain(canary);
  });
});
