/**
 * The organisations `npm run bench -- --scale` measures on: the demo, and generated ones of a
 * thousand and ten thousand zones. `nextNight` is what the emulator adds to serve the same
 * organisation a night later, for the drift benchmark (the demo does not change overnight).
 */
export const SCALE_NAMES = ['small', 'medium', 'large'] as const;
export type ScaleName = (typeof SCALE_NAMES)[number];

export interface Scale {
  name: ScaleName;
  description: string;
  dataset: string[];
  nextNight: string[];
}

export const SCALES: Record<ScaleName, Scale> = {
  small: { name: 'small', description: 'the demo organisation', dataset: ['--dataset', 'demo'], nextNight: [] },
  medium: { name: 'medium', description: '1,000 zones, 100,000 DNS records', dataset: ['--dataset', 'generated', '--zones', '1000', '--records', '100000'], nextNight: ['--revision', '1'] },
  large: { name: 'large', description: '10,000 zones, 1,000,000 DNS records', dataset: ['--dataset', 'generated', '--zones', '10000', '--records', '1000000'], nextNight: ['--revision', '1'] },
};
