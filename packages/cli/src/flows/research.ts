/**
 * `/research <question>`: plan a few web searches, run them together, read the best pages, and
 * answer with the sources. The last step keeps only sources that were actually read, so the
 * answer never cites a page the model made up.
 */
import type { WorkflowDefinition } from '@a3s-code/core';

const QUERIES_SCHEMA = {
  type: 'object',
  properties: {
    queries: {
      type: 'array',
      minItems: 1,
      maxItems: 4,
      items: { type: 'string' },
      description: 'distinct web search queries that together cover the question',
    },
  },
  required: ['queries'],
  additionalProperties: false,
} as const;

const ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    answer: { type: 'string', description: 'the answer, grounded in the pages read' },
    key_points: { type: 'array', items: { type: 'string' } },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          url: { type: 'string', description: 'the URL of a page that was read, exactly' },
          title: { type: 'string' },
          supports: { type: 'string', description: 'what in the answer this page supports' },
        },
        required: ['url', 'title', 'supports'],
        additionalProperties: false,
      },
    },
    confidence: { type: 'string', enum: ['high', 'medium', 'low'] },
  },
  required: ['answer', 'key_points', 'sources', 'confidence'],
  additionalProperties: false,
} as const;

/** Runs every search at once and keeps the best distinct results (QuickJS). */
const SEARCH = `export default async function run(ctx, inputs) {
  const queries = inputs.steps.queries.queries.slice(0, 4);
  const outcomes = await Promise.all(queries.map(async (query) => {
    try {
      const r = await ctx.tool('web_search', { query, limit: 6 });
      const results = (r.metadata && Array.isArray(r.metadata.results)) ? r.metadata.results : [];
      return { query, ok: r.ok, results, error: r.ok ? null : r.output.slice(0, 300) };
    } catch (e) {
      return { query, ok: false, results: [], error: e.message };
    }
  }));
  const seen = new Set();
  const results = [];
  for (let rank = 0; rank < 6; rank++) {
    for (const o of outcomes) {
      const hit = o.results[rank];
      if (!hit || seen.has(hit.url)) continue;
      seen.add(hit.url);
      results.push({ url: hit.url, title: hit.title || hit.url, snippet: String(hit.snippet || '').slice(0, 400), query: o.query });
    }
  }
  return { results: results.slice(0, 8), errors: outcomes.filter((o) => !o.ok).map((o) => ({ query: o.query, error: o.error })) };
}`;

/** Reads the top pages at once, keeping a bounded excerpt of each (QuickJS). */
const FETCH = `export default async function run(ctx, inputs) {
  const top = inputs.steps.search.results.slice(0, 4);
  const pages = await Promise.all(top.map(async (hit) => {
    try {
      const r = await ctx.tool('web_fetch', { url: hit.url, max_chars: 6000 });
      if (!r.ok) return { url: hit.url, title: hit.title, ok: false, error: r.output.slice(0, 300) };
      return { url: hit.url, title: (r.metadata && r.metadata.title) || hit.title, ok: true, excerpt: r.output.slice(0, 6000) };
    } catch (e) {
      return { url: hit.url, title: hit.title, ok: false, error: e.message };
    }
  }));
  return { pages: pages.filter((p) => p.ok), failed: pages.filter((p) => !p.ok).map((p) => ({ url: p.url, error: p.error })) };
}`;

/** Keeps only the sources that were read; the model is not trusted to cite honestly (QuickJS). */
const REPORT = `export default async function run(ctx, inputs) {
  const read = new Map(inputs.steps.fetch.pages.map((p) => [p.url, p]));
  const s = inputs.steps.synthesis;
  const sources = s.sources.filter((x) => read.has(x.url));
  const dropped = s.sources.filter((x) => !read.has(x.url)).map((x) => x.url);
  return { question: inputs.query, answer: s.answer, key_points: s.key_points, confidence: sources.length > 0 ? s.confidence : 'low', sources, dropped_sources: dropped };
}`;

/** The `/research` workflow. */
export const RESEARCH_FLOW: WorkflowDefinition = {
  name: 'research',
  description: 'search fan-out → fetch → structured synthesis with sources',
  steps: [
    {
      id: 'queries',
      kind: 'generate_object',
      schemaName: 'queries',
      prompt: 'Plan web searches to answer this question: {{query}}\n\nGive 1 to 4 distinct search queries.',
      schema: QUERIES_SCHEMA,
    },
    {
      id: 'search',
      kind: 'program',
      inputs: ['queries'],
      source: SEARCH,
      allowedTools: ['web_search'],
      limits: { timeoutMs: 180_000 },
    },
    {
      id: 'fetch',
      kind: 'program',
      inputs: ['search'],
      source: FETCH,
      allowedTools: ['web_fetch'],
      limits: { timeoutMs: 180_000 },
    },
    {
      id: 'synthesis',
      kind: 'generate_object',
      schemaName: 'answer',
      inputs: ['fetch'],
      prompt:
        'Answer the question from the pages below only. Cite each page you rely on by its exact URL; if the pages do not answer it, say so and set confidence to low.\n\nQuestion: {{query}}\n\nPages:\n{{steps.fetch.pages}}',
      schema: ANSWER_SCHEMA,
    },
    { id: 'report', kind: 'program', inputs: ['synthesis', 'fetch'], source: REPORT, allowedTools: [] },
  ],
};
