/**
 * The Vega transforms the page's chart templates use (their operators' types, see vega-templates.ts): the
 * page's own build of Vega registers these and no others (no parser, no geographic, force, hierarchy,
 * word-cloud… transforms). A test checks every operator of every template has one.
 */
export const VEGA_TRANSFORMS = [
  'aggregate',
  'axisticks',
  'bound',
  'collect',
  'datajoin',
  'encode',
  'expression',
  'extent',
  'facet',
  'filter',
  'formula',
  'identifier',
  'legendentries',
  'mark',
  'multiextent',
  'overlap',
  'prefacet',
  'proxy',
  'relay',
  'render',
  'scale',
  'sieve',
  'sortitems',
  'viewlayout',
  'voronoi',
] as const;
