// The `web_search` skill: queries the search API named in config (plugins.skill-web-search.url,
// key from the env var in api_key_env) and returns title/url/snippet triples. With no URL
// configured it answers "web search is not configured" as a failed call — it never makes up
// results. It understands the JSON shapes of Brave (web.results), SearXNG (results[].content)
// and generic APIs (results[]/items[] with title, url|link, snippet|description).
import { definePlugin, type SkillResult } from '../../kernel/index.ts';

interface SearchConfig extends Record<string, unknown> {
  url: string;
  api_key_env: string;
  api_key_header: string;
  max_results: number;
  timeout_ms: number;
}

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function parseResults(body: unknown, max: number): SearchHit[] {
  const b = body as Record<string, any>;
  const list: unknown[] = Array.isArray(b?.web?.results)
    ? b.web.results
    : Array.isArray(b?.results)
      ? b.results
      : Array.isArray(b?.items)
        ? b.items
        : Array.isArray(b?.organic_results)
          ? b.organic_results
          : [];
  return list
    .map((r) => {
      const x = r as Record<string, unknown>;
      return {
        title: str(x.title),
        url: str(x.url) || str(x.link),
        snippet: (str(x.snippet) || str(x.description) || str(x.content)).replace(/<[^>]+>/g, ''),
      };
    })
    .filter((h) => h.url)
    .slice(0, max);
}

export default definePlugin<SearchConfig>({
  setup(ctx) {
    const cfg = ctx.config;
    ctx.registerSkill({
      name: 'web_search',
      description:
        'Search the web and return titles, URLs and snippets. Fails with "web search is not configured" when no search API is set up.',
      capabilities: ['web_fetch'],
      inputSchema: {
        type: 'object',
        required: ['query'],
        additionalProperties: false,
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 400 },
          max_results: { type: 'integer', minimum: 1, maximum: 50 },
        },
      },
      async call(input, sc): Promise<SkillResult> {
        if (!cfg.url) {
          return {
            ok: false,
            output: null,
            error:
              'web search is not configured: set plugins.skill-web-search.url (and the key in the env var named by api_key_env) in the service config',
          };
        }
        let url: URL;
        try {
          url = new URL(cfg.url);
        } catch {
          return { ok: false, output: null, error: `web search is misconfigured: "${cfg.url}" is not a URL` };
        }
        url.searchParams.set('q', String(input.query));
        const headers: Record<string, string> = { accept: 'application/json' };
        const key = process.env[cfg.api_key_env];
        if (key) headers[cfg.api_key_header] = key;
        try {
          const res = await fetch(url, { headers, signal: AbortSignal.any([sc.signal, AbortSignal.timeout(cfg.timeout_ms)]) });
          if (!res.ok) return { ok: false, output: null, error: `search provider answered HTTP ${res.status}` };
          const body = await res.json().catch(() => null);
          if (body === null) return { ok: false, output: null, error: 'search provider did not return JSON' };
          const results = parseResults(body, Math.min(Number(input.max_results ?? cfg.max_results), 50));
          return { ok: true, output: { query: input.query, results } };
        } catch (e) {
          if (sc.signal.aborted) throw e;
          return { ok: false, output: null, error: `search request failed: ${(e as Error).message}` };
        }
      },
    });
  },
});
