import { describe, expect, it } from 'vitest';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, get } from '../support/http.js';
import { runInProcess, writeCommand, writesTo } from '../support/in-process.js';

/**
 * `zonewarden invites accept` on the tests' organisation, whose user has two pending invitations
 * (Globex Partners, not yet a member, and Northwind Retail), plus expired, accepted and rejected ones.
 * The emulator runs on the wall clock here, as the invitations' expiry is relative to it.
 */

const start = emulatorsClosedAfterEach();

async function setup(options: EmulatorOptions = {}) {
  const emu = await start({ dataset: caseDataset(), now: new Date(), ...options });
  return { emu, ...writeCommand(emu, ['invites', 'accept']) };
}


async function pendingIds(emu: RunningEmulator): Promise<Array<{ id: string; organization_name: string; organization_id: string }>> {
  return ((await get(emu, '/user/invites')).json.result as Array<{ id: string; status: string; organization_name: string; organization_id: string }>).filter((i) => i.status === 'pending');
}

describe('zonewarden invites accept', () => {
  it('lists the pending invitations, escaped, and writes nothing without a choice and --yes', async () => {
    const { emu, run, actions } = await setup();
    const list = await run();
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^2 pending invitation\(s\):\n {2}\w+ {2}Globex Partners <img src=x onerror=alert\(1\)><script>/);
    expect(list.stdout).toContain('choose with --all or --id ID, and add --yes to accept');
    // eslint-disable-next-line no-control-regex
    expect(list.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);
    const [globex, northwind] = await pendingIds(emu);
    expect(list.stdout).toContain(`(organisation ${globex!.organization_id})`);
    const dry = await run('--all', '--organization', globex!.organization_id, '--organization', northwind!.organization_id);
    expect(dry.stdout).toContain('would accept 2 invitation(s); dry run: nothing was written, add --yes to accept');
    expect(writesTo(emu)).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('--all accepts only from the organisations named, on the command line or in the config file', async () => {
    const { emu, run } = await setup();
    const unnamed = await run('--all', '--yes');
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toBe(
      'zonewarden invites: --all accepts invitations only from organisations you name: add --organization ID (repeatable; the ids are listed above) or an "organizations" list to the config file\n',
    );
    const [globex, northwind] = await pendingIds(emu);
    const one = await run('--all', '--organization', globex!.organization_id);
    expect(one.stdout).toContain(`not accepting 1 invitation(s) from organisations not named with --organization: ${northwind!.id}`);
    expect(one.stdout).toContain('would accept 1 invitation(s)');
    const configured = writeCommand(emu, ['invites', 'accept'], { organizations: [northwind!.organization_id] });
    const done = await configured.run('--all', '--yes');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`accepted ${northwind!.id}`);
    expect((await pendingIds(emu)).map((i) => i.id)).toEqual([globex!.id]);
    expect(writesTo(emu)).toEqual(['PATCH /user/invites/{invite_id}']);
  });

  it('accepts the chosen invitation, logs it, and scans the zones it makes visible', async () => {
    const { emu, run, actions, db } = await setup();
    const globex = (await pendingIds(emu)).find((i) => i.organization_name.startsWith('Globex'))!;
    const r = await run('--id', globex.id, '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`accepted ${globex.id} (Globex Partners`);
    expect(writesTo(emu)).toEqual(['PATCH /user/invites/{invite_id}']);
    expect((await pendingIds(emu)).map((i) => i.id)).not.toContain(globex.id);
    expect(actions().map((a) => [a.action, a.outcome, a.target.id])).toEqual([['invite.accept', 'ok', globex.id]]);
    expect(r.stderr).toMatch(/rescanned 1 zone\(s\) into scan 1/);
    const handle = openSnapshot(db);
    try {
      expect(new SnapshotReader(handle, 1).zones().map((z) => z.name)).toEqual(['globex-partners.example']);
    } finally {
      handle.close();
    }
  });

  it('refuses an id that is not a pending invitation, before writing', async () => {
    const { emu, run } = await setup();
    const r = await run('--id', 'feedfacefeedfacefeedfacefeedface', '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('zonewarden invites: feedfacefeedfacefeedfacefeedface is not a pending invitation; the pending ones are listed above\n');
    expect(writesTo(emu)).toEqual([]);
    const both = await run('--all', '--id', 'x');
    expect(both.stderr).toBe('zonewarden invites: give --all or --id, not both\n');
    const verb = await runInProcess(['invites', 'decline'], {}, '/');
    expect(verb.stderr).toMatch(/^zonewarden invites: unknown action decline; the action is accept/);
  });

  it('records a refused acceptance with its status, and exits 1 naming what failed after trying the others', async () => {
    const { emu, run, actions } = await setup({ failRoutes: ['PATCH /user/invites/{invite_id}'] });
    const orgs = (await pendingIds(emu)).flatMap((i) => ['--organization', i.organization_id]);
    const r = await run('--all', ...orgs, '--yes');
    expect(r.code).toBe(1);
    expect(r.stdout.match(/^failed \w+: /gm)).toHaveLength(2);
    expect(r.stderr).toMatch(/^2 of 2 invitation\(s\) could not be accepted: \w+ \(.*\); \w+ \(.*\)$/m);
    expect(actions().map((a) => [a.action, a.outcome, a.httpStatus])).toEqual([
      ['invite.accept', 'failed', 500],
      ['invite.accept', 'failed', 500],
    ]);
    // A write is never retried after a 5xx: it may have happened.
    expect(emu.stats().requests.byRoute['PATCH /user/invites/{invite_id}']).toBe(2);
  });
});
