(() => {
  'use strict';

  // Styles tell a page with the script from one without: controls that need it show only with it.
  document.documentElement.classList.add('zw-js');

  const PAGE_SIZE = 100;
  // Rows a group shows when it opens, and each "show more" adds.
  const GROUP_PAGE = 100;
  const SEARCH_DELAY_MS = 150;
  const COLUMNS = ['status', 'severity', 'category', 'rule', 'account', 'zone', 'resource', 'message', 'zoneId', 'firstSeen', 'readOn'];
  // Longer texts are cut in the table, with the whole text one click away: a 100,000-character
  // description laid out in full made the page hundreds of thousands of pixels tall.
  const CLIP = 300;
  // Names sit in narrow columns: 100 characters there are already five lines.
  const CLIP_NAME = 100;
  const DAY_MS = 86400000;
  // Columns of names (zones, records, accounts), which wrap at their dots and hyphens only.
  const NAMES = ['rule', 'account', 'zone', 'resource'];
  const FILTERS = ['status', 'severity', 'category', 'rule', 'account', 'zone'];
  // What the search box looks in: every text column (status, severity and category have filters).
  const SEARCHED = ['rule', 'account', 'zone', 'resource', 'message'];
  // Worst first. Status and severity sort (and list their options) by rank, never alphabetically.
  const RANKS = {
    status: ['fail', 'unknown', 'waived', 'pass'],
    severity: ['critical', 'high', 'medium', 'low', 'info'],
  };
  // Numeric so that "rule-9" sorts before "rule-10". Default sensitivity keeps "a" and "A" apart,
  // so each distinct value gets a sort position of its own.
  const collator = new Intl.Collator('en', { numeric: true });
  const fmt = (n) => n.toLocaleString('en-US');
  const byId = (id) => document.getElementById(id);

  let findings = [];
  let displayKeys = [];
  let visible = [];
  // Which findings the filters and search keep (1) or hide (0), by index; and how many times that was worked out.
  let hits = new Uint8Array(0);
  let generation = 0;
  let sortCache = null;
  let searchTimer = 0;
  // The view shown when the address names none: the first of the page's view switch, else the table alone.
  let defaultView = 'table';
  const optionValues = {};
  const state = defaultState();
  const els = {};
  // The page's groups of findings (details.zw-group), by view and key (a rule id, a zone id), and by element.
  const groups = { rule: new Map(), zone: new Map() };
  const groupOf = new Map();
  // A rule group's own words (title, compliance controls), which the search matches for each of its findings.
  const ruleText = new Map();
  let shownGroup = null;

  function defaultState() {
    return { filters: Object.fromEntries(FILTERS.map((key) => [key, ''])), q: '', sort: '', desc: false, page: 1, view: defaultView };
  }

  // Large reports carry the findings gzip-compressed in base64 (data-encoding="gzip+base64"):
  // 100,000 findings are 35 MB of JSON but 2 MB compressed, and the browser inflates them itself.
  async function readText(element) {
    if (element.dataset.encoding !== 'gzip+base64') return element.textContent;
    const binary = atob(element.textContent.trim());
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  }

  async function readData() {
    try {
      const data = JSON.parse(await readText(byId('zw-findings')));
      if (data && Array.isArray(data.columns) && Array.isArray(data.rows)) return data;
    } catch (err) {
      // Reported below through the count line, which is where the reader is looking.
    }
    return null;
  }

  // Rows become objects once, with the lower-cased search text precomputed, so a keystroke over
  // 100,000 findings is a single substring test per row.
  function toFindings(data) {
    const at = COLUMNS.map((name) => data.columns.indexOf(name));
    const text = (value) => (value === undefined || value === null ? '' : String(value));
    // A literal per row, not a loop over the columns: at 100,000 rows this is the costly step of loading.
    const [status, severity, category, rule, account, zone, resource, message, zoneId, firstSeen, readOn] = at;
    return data.rows.map((row, index) => {
      const r = Array.isArray(row) ? row : [];
      return {
        index,
        status: text(r[status]),
        severity: text(r[severity]),
        category: text(r[category]),
        rule: text(r[rule]),
        account: text(r[account]),
        zone: text(r[zone]),
        resource: text(r[resource]),
        message: text(r[message]),
        zoneId: text(r[zoneId]),
        firstSeen: text(r[firstSeen]),
        readOn: text(r[readOn]),
      };
    });
  }

  // Built on the first search rather than up front, where it would delay the first rows. NUL
  // between fields stops a query from matching across two of them.
  function haystack(f) {
    if (f.haystack === undefined) f.haystack = SEARCHED.map((name) => f[name]).concat(ruleText.get(f.rule) || '').join('\u0000').toLowerCase();
    return f.haystack;
  }

  // Zones are filtered by id: two accounts may hold zones with the same name.
  const filterValue = (f, key) => (key === 'zone' ? f.zoneId : f[key]);

  // Values outside the known ranks (a newer server) sort after the known ones, by name.
  function rank(key, value) {
    const i = RANKS[key].indexOf(value);
    return i < 0 ? RANKS[key].length : i;
  }

  const compareValues = (key, a, b) => (RANKS[key] ? rank(key, a) - rank(key, b) : 0) || collator.compare(a, b);

  function distinctOptions(key) {
    const labels = new Map();
    for (const f of findings) {
      const value = filterValue(f, key);
      if (value !== '' && !labels.has(value)) labels.set(value, key === 'zone' ? f.zone || value : value);
    }
    if (key === 'zone') disambiguate(labels);
    return [...labels].sort((a, b) => compareValues(key, a[1], b[1]) || collator.compare(a[0], b[0]));
  }

  // A name shared by several zone ids gets its id appended, or the options would look identical.
  function disambiguate(labels) {
    const uses = new Map();
    for (const label of labels.values()) uses.set(label, (uses.get(label) || 0) + 1);
    for (const [id, label] of labels) if (uses.get(label) > 1 && label !== id) labels.set(id, label + ' (' + id + ')');
  }

  function fillSelects() {
    for (const key of FILTERS) {
      const options = distinctOptions(key);
      optionValues[key] = new Set(options.map((o) => o[0]));
      for (const [value, label] of options) {
        const option = document.createElement('option');
        option.value = value;
        option.textContent = label;
        els.selects[key].appendChild(option);
      }
    }
  }

  // Sorting 100,000 rows is the one costly step, so the order is kept until the sort changes and
  // filters only ever walk it. The collator runs over the distinct values only; the rows are then
  // ordered by each value's position, a plain number comparison.
  function sortedFindings() {
    if (!state.sort) return findings;
    if (sortCache && sortCache.key === state.sort && sortCache.desc === state.desc) return sortCache.order;
    const key = state.sort;
    const distinct = [...new Set(findings.map((f) => f[key]))].sort((a, b) => compareValues(key, a, b));
    const position = new Map(distinct.map((value, i) => [value, i]));
    const sign = state.desc ? -1 : 1;
    // Ties fall back to the original worst-first order in both directions: a stable sort.
    const order = findings.slice().sort((a, b) => sign * (position.get(a[key]) - position.get(b[key])) || a.index - b.index);
    sortCache = { key, desc: state.desc, order };
    return order;
  }

  function matches(f, needle) {
    for (const key of FILTERS) {
      const want = state.filters[key];
      if (want !== '' && filterValue(f, key) !== want) return false;
    }
    return needle === '' || haystack(f).includes(needle);
  }

  const isFiltered = () => state.q.trim() !== '' || FILTERS.some((key) => state.filters[key] !== '');

  const classSafe = (value) => value.replace(/[^A-Za-z0-9_-]/g, '');

  // Names break only after a dot, a hyphen or a slash (or before the escape of an invisible
  // character, and after it), never inside a label ("northwi / nd.exa"). An opaque token of 24 or
  // more letters and digits (a 32-digit hex id) may break every 8: it is no word, and would widen
  // the table.
  function breakable(text) {
    const fragment = document.createDocumentFragment();
    for (const part of text.split(/(?<=[./-])|(?=\\u)|(?<=\\u[0-9a-f]{4})|(?<=(?:^|[^0-9A-Za-z])(?:[0-9A-Za-z]{8})+)(?=[0-9A-Za-z]{16})/)) {
      if (fragment.firstChild) fragment.appendChild(document.createElement('wbr'));
      fragment.appendChild(document.createTextNode(part));
    }
    return fragment;
  }

  function zoneButton(f) {
    const el = button('zw-zone', '');
    el.appendChild(breakable(f.zone || f.zoneId));
    el.dataset.zone = f.zoneId;
    el.title = 'Show this zone\'s findings';
    // A zone this scan carried forward: its data is from its last full read.
    if (f.readOn !== '') {
      const when = document.createElement('small');
      when.className = 'zw-read-on';
      when.textContent = ' data of ' + f.readOn.slice(0, 10);
      el.appendChild(when);
      el.title = 'Show this zone\'s findings. Its data was last read in full on ' + f.readOn.slice(0, 10) + ' and has not changed since, as the account audit log shows.';
    }
    return el;
  }

  // A text longer than CLIP characters shows its start and a button that shows the rest in place.
  function clipped(text, name) {
    const chars = Array.from(text);
    const limit = name ? CLIP_NAME : CLIP;
    if (chars.length <= limit) return name ? breakable(text) : document.createTextNode(text);
    const span = document.createElement('span');
    span.className = 'zw-clip';
    span.textContent = chars.slice(0, limit).join('') + '\u2026 ';
    const more = button('zw-more', 'show all ' + fmt(chars.length) + ' characters');
    more.setAttribute('aria-expanded', 'false');
    span.appendChild(more);
    return span;
  }

  // The row carries its finding's index; the column's header its key.
  function expand(more) {
    const td = more.closest('td');
    const f = findings[Number(td.parentNode.dataset.at)];
    const th = td.closest('table').tHead.rows[0].cells[td.cellIndex];
    if (!f || !th || !COLUMNS.includes(th.dataset.key)) return;
    td.replaceChildren(document.createTextNode(f[th.dataset.key]));
  }

  // "since 2026-11-20 (4 days)": when the finding started failing, in every scan since.
  function sinceText(iso, now) {
    if (iso === '') return '';
    const days = Math.max(0, Math.floor((now - Date.parse(iso)) / DAY_MS));
    const since = Date.parse(iso) >= now ? ' (new)' : days === 0 ? ' (under a day)' : ' (' + fmt(days) + (days === 1 ? ' day)' : ' days)');
    return iso.slice(0, 10) + since;
  }

  // What to do about each failing rule and why it matters, from the page's "What to do" table:
  // shown on the rule cell of its failures, and in the collapsed "what to do" cell of each one.
  // Its last two cells are what to do and why it matters (the paragraph under its own summary).
  const remediations = new Map();
  for (const row of document.querySelectorAll('#remediation tbody tr')) {
    const cells = row.querySelectorAll('td');
    const why = cells.length >= 4 ? cells[cells.length - 1] : null;
    if (why) remediations.set(row.id.replace(/^fix-/, ''), { fix: cells[cells.length - 2].textContent, why: (why.querySelector('p') || why).textContent });
  }
  const fixColumn = document.querySelector('#zw-table thead th.zw-fix') !== null;
  // "How long" is counted to the scan the report is of, not to the day it is opened.
  const scanTime = Date.parse(document.documentElement.dataset.zwScanTime || '') || Date.now();

  function fixCell(f) {
    const td = document.createElement('td');
    const text = f.status === 'pass' ? undefined : remediations.get(f.rule);
    if (!text) return td;
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'what to do';
    const fix = document.createElement('p');
    fix.textContent = text.fix;
    details.append(summary, fix);
    if (text.why) {
      const why = document.createElement('p');
      why.className = 'zw-why';
      why.textContent = 'Why it matters: ' + text.why;
      details.appendChild(why);
    }
    td.appendChild(details);
    return td;
  }

  // A link to the rule's group, where its remediation and all its findings are.
  function ruleLink(f) {
    const a = document.createElement('a');
    a.href = '#' + groups.rule.get(f.rule).el.id;
    a.appendChild(breakable(f.rule));
    return a;
  }

  // `keys` are the columns of the table the row goes into; `inGroup`: a group's table, whose rule cells link to the rule's group.
  function buildRow(f, keys, inGroup) {
    const tr = document.createElement('tr');
    tr.className = 'sev-' + classSafe(f.severity) + ' st-' + classSafe(f.status);
    tr.dataset.at = String(f.index);
    for (const key of keys) {
      const td = document.createElement('td');
      // A group's cells say their column, for its widths (the page's rows carry the same classes).
      if (inGroup) td.className = 'k-' + key;
      if (key === 'zone' && f.zoneId !== '') td.appendChild(zoneButton(f));
      else if (key === 'firstSeen') td.textContent = sinceText(f.firstSeen, scanTime);
      else if (key === 'verdict') {
        td.classList.add('sev');
        td.textContent = f.status === 'fail' ? f.severity : f.severity + ', ' + f.status;
      } else if (key === 'rule' && inGroup && groups.rule.has(f.rule)) td.appendChild(ruleLink(f));
      else if (COLUMNS.includes(key)) td.appendChild(clipped(f[key], NAMES.includes(key)));
      if (key === 'rule' && f.status !== 'pass' && remediations.has(f.rule)) td.title = 'What to do: ' + remediations.get(f.rule).fix;
      tr.appendChild(td);
    }
    if (fixColumn && !inGroup) tr.appendChild(fixCell(f));
    return tr;
  }

  // The total is only worth repeating when a filter or search hides part of it.
  function countText(start, shown) {
    const n = visible.length;
    if (n === 0) return 'No findings match.';
    const text = 'Showing ' + fmt(start + 1) + '\u2013' + fmt(start + shown) + ' of ' + fmt(n) + (n === 1 ? ' finding' : ' findings');
    return isFiltered() ? text + ' (' + fmt(findings.length) + ' in total)' : text;
  }

  function renderControls(pages) {
    els.prev.disabled = state.page <= 1;
    els.next.disabled = state.page >= pages;
    els.pageLabel.textContent = 'Page ' + fmt(state.page) + ' of ' + fmt(pages);
    for (const th of els.headers) {
      if (th.dataset.key === state.sort) th.setAttribute('aria-sort', state.desc ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    }
  }

  function render() {
    const pages = Math.max(1, Math.ceil(visible.length / PAGE_SIZE));
    state.page = Math.min(Math.max(1, state.page), pages);
    const start = (state.page - 1) * PAGE_SIZE;
    const slice = visible.slice(start, start + PAGE_SIZE);
    const rows = document.createDocumentFragment();
    for (const f of slice) rows.appendChild(buildRow(f, displayKeys, false));
    els.tbody.replaceChildren(rows);
    els.count.textContent = countText(start, slice.length);
    renderControls(pages);
    writeHash();
  }

  function update() {
    const needle = state.q.trim().toLowerCase();
    hits = new Uint8Array(findings.length);
    for (const f of findings) if (matches(f, needle)) hits[f.index] = 1;
    generation++;
    visible = sortedFindings().filter((f) => hits[f.index] === 1);
    updateGroups();
    render();
  }

  // Groups: each (details.zw-group) holds the findings of one rule or one zone. Its rows are drawn
  // from the data when it opens (the page's own rows are for readers without the script), with the
  // filters and search applied; a group none of whose findings match is hidden while they are set.
  function indexGroups() {
    for (const el of document.querySelectorAll('details.zw-group')) {
      const kind = el.dataset.kind;
      const key = el.dataset.key;
      if (!groups[kind] || key === undefined || groups[kind].has(key)) continue;
      const g = { el, kind, key, table: el.querySelector('table.zw-rows'), findings: [], shown: GROUP_PAGE, drawn: -1, more: null, count: el.querySelector('.zw-n') };
      groups[kind].set(key, g);
      groupOf.set(el, g);
      if (kind === 'rule' && el.dataset.search) ruleText.set(key, el.dataset.search);
    }
    for (const f of findings) {
      const byRule = groups.rule.get(f.rule);
      if (byRule) byRule.findings.push(f);
      const byZone = groups.zone.get(f.zoneId);
      if (byZone) byZone.findings.push(f);
    }
  }

  function plural(n, one, many) {
    return fmt(n) + ' ' + (n === 1 ? one : many);
  }

  function updateGroups() {
    const filtered = isFiltered();
    const matching = { rule: 0, zone: 0 };
    for (const g of groupOf.values()) {
      let n = 0;
      for (const f of g.findings) n += hits[f.index];
      g.el.hidden = filtered && n === 0;
      if (g.count) g.count.textContent = filtered ? fmt(n) + ' of ' + fmt(g.findings.length) : fmt(g.findings.length);
      if (n > 0) matching[g.kind]++;
      g.shown = GROUP_PAGE;
      if (g.el.open) drawGroup(g);
    }
    if (els.match) {
      els.match.textContent = filtered && groupOf.size > 0
        ? plural(visible.length, 'finding', 'findings') + ' of ' + fmt(findings.length) + ' match, in ' + plural(matching.rule, 'rule', 'rules') + ' and ' + plural(matching.zone, 'zone', 'zones') + '.'
        : '';
    }
  }

  // A group the page wrote no rows for gets its table from the view's template (one header for all its groups).
  function tableOf(g) {
    if (!g.table) {
      const template = document.querySelector('template.zw-head[data-kind="' + g.kind + '"]');
      const body = g.el.querySelector('.zw-body');
      if (!template || !body) return null;
      const copy = template.content.cloneNode(true);
      g.table = copy.querySelector('table');
      body.insertBefore(copy, body.querySelector('.zw-rest'));
    }
    return g.table;
  }

  function drawGroup(g) {
    const table = tableOf(g);
    if (!table) return;
    const keys = Array.from(table.tHead.querySelectorAll('th[data-key]'), (th) => th.dataset.key);
    const rows = g.findings.filter((f) => hits[f.index] === 1);
    const body = document.createDocumentFragment();
    for (const f of rows.slice(0, g.shown)) body.appendChild(buildRow(f, keys, true));
    table.tBodies[0].replaceChildren(body);
    const rest = rows.length - Math.min(rows.length, g.shown);
    if (rest > 0 && !g.more) {
      g.more = button('zw-group-more', '');
      g.more.addEventListener('click', () => {
        g.shown += GROUP_PAGE;
        drawGroup(g);
      });
      table.parentNode.after(g.more);
    }
    if (g.more) {
      g.more.hidden = rest === 0;
      g.more.textContent = 'Show ' + fmt(Math.min(rest, GROUP_PAGE)) + ' more (' + fmt(rest) + ' not shown)';
    }
    g.drawn = generation;
  }

  // The group a page address names (#zone-…, #rule-…), or null.
  function groupAt(id) {
    const el = id === '' ? null : document.getElementById(id);
    return (el && groupOf.get(el)) || null;
  }

  // A link to a view itself (#zw-by-zone): that view, from its top.
  function viewAt(id) {
    const input = els.viewInputs.find((i) => 'zw-by-' + i.value === id);
    return input ? input.value : null;
  }

  function showView(view) {
    setView(view);
    writeHash(false);
    (byId('findings') || byId('zw-by-' + view)).scrollIntoView({ block: 'start' });
  }

  function setView(view) {
    const input = els.viewInputs.find((i) => i.value === view);
    if (!input) return;
    input.checked = true;
    state.view = view;
  }

  // Opens a group where the reader can see it: its view shown, the filters that hid it cleared, the
  // group open and scrolled to the top of the window, and the address naming it (a new history
  // entry for a click, so Back returns to where the reader was).
  function reveal(g, push) {
    if (g.el.hidden) {
      change(() => Object.assign(state, { filters: defaultState().filters, q: '' }));
      for (const key of FILTERS) els.selects[key].value = '';
      els.search.value = '';
    }
    setView(g.kind);
    g.el.open = true;
    if (g.drawn !== generation) drawGroup(g);
    if (shownGroup) shownGroup.classList.remove('zw-shown');
    shownGroup = g.el;
    g.el.classList.add('zw-shown');
    g.el.scrollIntoView({ block: 'start' });
    g.el.querySelector('summary').focus({ preventScroll: true });
    const hash = '#' + g.el.id;
    if (location.hash !== hash) history[push ? 'pushState' : 'replaceState'](history.state, '', location.href.split('#')[0] + hash);
  }

  // A zone named anywhere in the page: its group when the page has one, else the table narrowed to it.
  function goToZone(zoneId) {
    const g = groups.zone.get(zoneId);
    if (g) reveal(g, true);
    else drillDown(zoneId);
  }

  function stateToHash() {
    const parts = [];
    if (state.view !== defaultView) parts.push('view=' + state.view);
    for (const key of FILTERS) if (state.filters[key] !== '') parts.push(key + '=' + encodeURIComponent(state.filters[key]));
    if (state.q !== '') parts.push('q=' + encodeURIComponent(state.q));
    if (state.sort) parts.push('sort=' + (state.desc ? '-' : '') + encodeURIComponent(state.sort));
    if (state.page > 1) parts.push('page=' + state.page);
    return parts.join('&');
  }

  const currentHash = () => location.hash.replace(/^#/, '');
  const isSectionLink = (hash) => hash !== '' && !hash.includes('=') && document.getElementById(hash) !== null;

  // replaceState rather than new history entries: narrowing a filter letter by letter shouldn't
  // take as many Back presses to undo. A link to a section or a group stays in the address while
  // nothing is filtered, sorted or paged: it says where the reader is.
  function writeHash(keepLink = true) {
    const hash = stateToHash();
    if (hash === currentHash()) return;
    if (keepLink && isSectionLink(currentHash()) && !isFiltered() && !state.sort && state.page === 1) return;
    history.replaceState(history.state, '', location.href.split('#')[0] + (hash ? '#' + hash : ''));
  }

  // Anything unknown or invalid in a bookmark is dropped rather than shown as an empty view.
  function applyHashValue(next, key, value) {
    if (FILTERS.includes(key)) {
      if (optionValues[key].has(value)) next.filters[key] = value;
    } else if (key === 'q') {
      next.q = value;
    } else if (key === 'view') {
      if (els.viewInputs.some((i) => i.value === value)) next.view = value;
    } else if (key === 'page') {
      if (/^[1-9][0-9]{0,8}$/.test(value)) next.page = Number(value);
    } else if (key === 'sort') {
      const desc = value.startsWith('-');
      const sortKey = desc ? value.slice(1) : value;
      if (displayKeys.includes(sortKey) && COLUMNS.includes(sortKey)) Object.assign(next, { sort: sortKey, desc });
    }
  }

  function readHash() {
    const next = defaultState();
    for (const part of currentHash().split('&')) {
      const eq = part.indexOf('=');
      if (eq < 1) continue;
      try {
        applyHashValue(next, part.slice(0, eq), decodeURIComponent(part.slice(eq + 1)));
      } catch (err) {
        // A malformed escape (a hand-edited or truncated link) drops just that one value.
      }
    }
    return next;
  }

  function loadHash() {
    Object.assign(state, readHash());
    for (const key of FILTERS) els.selects[key].value = state.filters[key];
    els.search.value = state.q;
    setView(state.view);
  }

  // Every change of what is shown starts again at page 1; only the pager moves between pages.
  function change(apply) {
    apply();
    state.page = 1;
    update();
  }

  function applySearch() {
    clearTimeout(searchTimer);
    if (els.search.value !== state.q) change(() => (state.q = els.search.value));
  }

  function sortBy(key) {
    change(() => {
      state.desc = state.sort === key ? !state.desc : false;
      state.sort = key;
    });
  }

  function goToPage(page) {
    state.page = page;
    render();
    // The pager may sit below a long table; the new page should start where the reader can see it.
    if (els.table.getBoundingClientRect().top < 0) els.table.scrollIntoView({ block: 'start' });
  }

  function drillDown(zoneId) {
    if (!optionValues.zone.has(zoneId)) return;
    setView('table');
    els.selects.zone.value = zoneId;
    change(() => (state.filters.zone = zoneId));
    // The clicked button is gone after the re-render; focus the filter that now holds the zone.
    els.selects.zone.focus({ preventScroll: true });
    els.table.scrollIntoView({ block: 'start' });
  }

  function button(className, text) {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = className;
    el.textContent = text;
    return el;
  }

  function buildControls() {
    // Header text moves into a button so a sortable column is reachable from the keyboard.
    for (const th of els.headers) {
      const sort = button('zw-sort', '');
      while (th.firstChild) sort.appendChild(th.firstChild);
      th.appendChild(sort);
    }
    els.prev = button('zw-prev', 'Previous');
    els.next = button('zw-next', 'Next');
    els.pageLabel = document.createElement('span');
    byId('zw-pager').replaceChildren(els.prev, els.pageLabel, els.next);
  }

  function listen() {
    const form = byId('zw-filters');
    form.addEventListener('change', (event) => {
      const key = FILTERS.find((k) => els.selects[k] === event.target);
      if (key) change(() => (state.filters[key] = event.target.value));
    });
    // Enter in the search box would otherwise submit the form and reload the page.
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      applySearch();
    });
    els.search.addEventListener('input', () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(applySearch, SEARCH_DELAY_MS);
    });
    els.prev.addEventListener('click', () => goToPage(state.page - 1));
    els.next.addEventListener('click', () => goToPage(state.page + 1));
    els.table.tHead.addEventListener('click', (event) => {
      const th = event.target.closest('th[data-key]');
      if (th && COLUMNS.includes(th.dataset.key)) sortBy(th.dataset.key);
    });
    // Zones, long texts and links to groups anywhere in the page: the tables' rows come and go.
    document.addEventListener('click', (event) => {
      if (!(event.target instanceof Element)) return;
      const zone = event.target.closest('button.zw-zone');
      if (zone) return goToZone(zone.dataset.zone);
      const more = event.target.closest('button.zw-more');
      if (more) return expand(more);
      const link = event.target.closest('a[href^="#"]');
      if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const id = link.getAttribute('href').slice(1);
      const g = groupAt(id);
      const view = g ? null : viewAt(id);
      if (g || view) event.preventDefault();
      if (g) reveal(g, true);
      else if (view) showView(view);
    });
    for (const input of els.viewInputs) {
      input.addEventListener('change', () => {
        if (!input.checked) return;
        state.view = input.value;
        // The address then names the view, not a group of another one.
        writeHash(false);
      });
    }
    // A group is drawn when it opens, unless it already shows the current filters' rows.
    const views = byId('findings') || document;
    views.addEventListener(
      'toggle',
      (event) => {
        const g = groupOf.get(event.target);
        if (g && g.el.open && g.drawn !== generation) drawGroup(g);
      },
      true,
    );
    // Our own writes never change the hash away from the state, so only an edit by hand (or Back) lands here.
    // A link to a section of the page (#findings) is not a view: it must not reset the filters.
    window.addEventListener('hashchange', () => {
      const g = groupAt(currentHash());
      if (g) return reveal(g, false);
      const view = viewAt(currentHash());
      if (view) return showView(view);
      if (currentHash() === stateToHash() || isSectionLink(currentHash())) return;
      loadHash();
      update();
    });
  }

  // The page template guarantees these elements, so they are looked up once and not re-checked.
  async function start() {
    els.table = byId('zw-table');
    els.count = byId('zw-count');
    els.search = byId('zw-search');
    els.tbody = els.table.tBodies[0];
    els.headers = Array.from(els.table.tHead.querySelectorAll('th[data-key]'));
    els.selects = {};
    for (const key of FILTERS) els.selects[key] = byId('zw-f-' + key);
    els.match = byId('zw-match');
    els.viewInputs = Array.from(document.querySelectorAll('input[name="zw-view"]'));
    const checked = els.viewInputs.find((i) => i.checked);
    if (checked) defaultView = state.view = checked.value;
    displayKeys = els.headers.map((th) => th.dataset.key);
    const data = await readData();
    findings = data ? toFindings(data) : [];
    indexGroups();
    buildControls();
    // Without a bookmarked view, the first page of rows (the worst findings) is shown before the
    // filter menus are built: at 100,000 findings that is a second sooner. A bookmarked view
    // needs the menus first, to check its values against them.
    if (!location.hash) {
      update();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }
    fillSelects();
    loadHash();
    listen();
    update();
    if (!data) els.count.textContent = 'The findings data in this report could not be read.';
    // Opened at a group's address (a link from elsewhere, a bookmark): that group, shown.
    const at = groupAt(currentHash());
    const view = at ? null : viewAt(currentHash());
    if (at) reveal(at, false);
    else if (view) showView(view);
    document.documentElement.dataset.zwReady = '1';
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
