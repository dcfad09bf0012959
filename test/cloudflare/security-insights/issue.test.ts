import { describe, expect, it } from 'vitest';
import { parseIssue } from '../../../src/cloudflare/security-insights/issue.js';

describe("an insight of the vendor's scanner", () => {
  it('reads an issue as served, and refuses one without id or class', () => {
    // vendor's API reference: security center, insights, list (GET /accounts/{account_id}/security-center/insights): issues[] with id, issue_class, payload.zone_tag.
    const raw = JSON.stringify({ id: 'x', issue_class: 'dmarc', issue_type: 'email_security', severity: 'Moderate', subject: '<b>', resolve_text: 't', payload: { zone_tag: 'z1', detection_method: 'm' }, timestamp: '2026-10-30T00:00:00Z' });
    expect(parseIssue(raw, 'acc')).toMatchObject({ id: 'x', zoneId: 'z1', issueClass: 'dmarc', subject: '<b>' });
    expect(parseIssue('{"issue_class":"dmarc"}', 'acc')).toBeNull();
    expect(parseIssue('not json', 'acc')).toBeNull();
  });

  it('reads a non-object payload or field as absent, not as a value', () => {
    const raw = JSON.stringify({ id: 'x', issue_class: 'dmarc', payload: ['z1'], severity: 3 });
    expect(parseIssue(raw, 'acc')).toMatchObject({ zoneId: null, severity: null, accountId: 'acc' });
    expect(parseIssue('[1]', 'acc')).toBeNull();
  });
});
