import rule from '../../rules/zone-not-active.js';
import { testRule } from '../support/rule-tester.js';

testRule(rule, {
  valid: [{ name: 'an active, unpaused zone', snapshot: { zones: [{ name: 'ok.example' }] } }],
  invalid: [
    { name: 'a paused zone', snapshot: { zones: [{ name: 'p.example', paused: true }] }, findings: [{ messageId: 'paused', zone: 'p.example', resourceType: 'zone' }] },
    {
      name: 'a zone waiting for its name servers',
      snapshot: { zones: [{ name: 'pending.example', status: 'pending' }] },
      findings: [{ messageId: 'notActive', message: 'the zone is pending' }],
    },
    {
      name: 'a moved zone that is also paused reports the status',
      snapshot: { zones: [{ name: 'm.example', status: 'moved', paused: true }] },
      findings: [{ messageId: 'notActive', message: 'moved' }],
    },
    { name: 'one finding per zone, for bad zones only', snapshot: { zones: [{ name: 'a.example', paused: true }, { name: 'b.example' }] }, findings: [{ zone: 'a.example' }] },
  ],
});
