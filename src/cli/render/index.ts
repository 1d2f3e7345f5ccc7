export { renderDriftJson, renderDriftMarkdown, renderDriftText } from './drift.js';
export { renderGraph, type GraphFormat } from './graph.js';
export { renderPlanJson } from './json.js';
export { MARKDOWN_LIMIT, renderPlanMarkdown } from './markdown.js';
export { renderPlanText, type TextOptions } from './text.js';

export type PlanFormat = 'text' | 'json' | 'markdown';
