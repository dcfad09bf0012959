import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import Handlebars from 'handlebars';
import { ZonewardenError } from '../common/errors.js';
import { PACKAGE } from '../common/package-info.js';
import { HELPERS } from './helpers.js';

/**
 * The reports' Handlebars environment: `templates/<name>.hbs` and `templates/partials/`, any of which
 * `--templates` may replace by file name. Strict mode: a field the view lacks is an error, not an empty
 * cell. Markdown templates (`*.md.hbs`, partials `md-*`) compile without HTML escaping: their view
 * carries text already escaped for Markdown, which HTML escaping would garble.
 */

export const TEMPLATE_NAMES = ['report.html', 'report.md', 'index.html'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export class TemplateError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_TEMPLATE', message);
  }
}

export interface Templates {
  render(name: TemplateName, view: object): string;
}

export const PACKAGE_TEMPLATES = join(PACKAGE.root, 'templates');

/** `.hbs` files of a directory, by name without the extension. */
function hbsFiles(dir: string): Map<string, string> {
  const entries = existsSync(dir) ? readdirSync(dir).filter((entry) => entry.endsWith('.hbs') && statSync(join(dir, entry)).isFile()) : [];
  return new Map(entries.map((entry) => [basename(entry, '.hbs'), join(dir, entry)]));
}

const oneLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');

export function loadTemplates(options: { overrideDir?: string } = {}): Templates {
  const env = Handlebars.create();
  for (const [name, helper] of Object.entries(HELPERS)) env.registerHelper(name, (...args: unknown[]) => helper.fn(...args.slice(0, -1)));

  const templates = hbsFiles(PACKAGE_TEMPLATES);
  const partials = hbsFiles(join(PACKAGE_TEMPLATES, 'partials'));
  if (options.overrideDir !== undefined) {
    const dir = options.overrideDir;
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new TemplateError(`--templates ${dir}: no such directory`);
    const known = [...TEMPLATE_NAMES, ...partials.keys()].map((n) => `${n}.hbs`);
    for (const [name, path] of hbsFiles(dir)) {
      if (!(TEMPLATE_NAMES as readonly string[]).includes(name)) {
        throw new TemplateError(`--templates ${dir}: ${name}.hbs is not a template zonewarden renders; the templates are ${TEMPLATE_NAMES.map((n) => `${n}.hbs`).join(', ')}`);
      }
      templates.set(name, path);
    }
    for (const [name, path] of hbsFiles(join(dir, 'partials'))) {
      if (!partials.has(name)) throw new TemplateError(`--templates ${dir}: partials/${name}.hbs is not a partial of the templates; they are ${[...partials.keys()].join(', ') || 'none'} (known files: ${known.join(', ')})`);
      partials.set(name, path);
    }
  }
  for (const [name, path] of partials) {
    try {
      env.registerPartial(name, env.compile(readFileSync(path, 'utf8'), { strict: true, noEscape: name.startsWith('md-') }));
    } catch (err) {
      throw new TemplateError(`${path}: ${oneLine(err)}`);
    }
  }

  const compiled = new Map<TemplateName, HandlebarsTemplateDelegate>();
  return {
    render(name, view) {
      let template = compiled.get(name);
      const path = templates.get(name);
      if (!path) throw new TemplateError(`no template ${name}.hbs in ${PACKAGE_TEMPLATES}: the package is incomplete; reinstall it`);
      try {
        if (!template) compiled.set(name, (template = env.compile(readFileSync(path, 'utf8'), { strict: true, noEscape: name.endsWith('.md') })));
        return template(view);
      } catch (err) {
        throw new TemplateError(`${path}: ${oneLine(err)}`);
      }
    },
  };
}
