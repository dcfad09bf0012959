import type { SpecialOptions } from '../../cloudflare/dns/addresses.js';
import type { OptionValue } from '../rule.js';

/** dns-private-address's options on which addresses are not public, which the other DNS rules take (meta.optionsFrom). */
export type AddressOptions = Readonly<{
  documentation: boolean;
  standIns: readonly string[];
  [option: string]: OptionValue;
}>;
export const ADDRESS_OPTIONS_FROM = { rule: 'dns-private-address', options: ['documentation', 'standIns'] } as const;
export const ADDRESS_OPTION_DEFAULTS = { documentation: true, standIns: [] as readonly string[] };
/** The help of those options on a rule that takes them from dns-private-address. */
export const FOLLOWED_ADDRESS_HELP = {
  documentation: "dns-private-address's option of that name, which this rule follows (set it there): whether documentation addresses are not public, and left to dns-private-address",
  standIns: "dns-private-address's option of that name, which this rule follows (set it there): the documentation ranges that stand in for public addresses here",
} as const;

export function specialOptions(o: AddressOptions): SpecialOptions {
  return { documentation: o.documentation, standIns: new Set(o.standIns) };
}
