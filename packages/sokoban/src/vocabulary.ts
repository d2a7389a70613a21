import { Tile } from './tile.js';

/**
 * The two text vocabularies of levels: `xsb`, the standard Sokoban format (`#` wall, `@` player, `+`
 * player on target, `$` box, `*` box on target, `.` target, space floor; `-` and `_` also read as floor),
 * and `ragen`, the one RAGEN's LLM prompts use (`#` wall, `_` floor, `O` target, `X` box, `√` box on
 * target, `P` player, `S` player on target).
 */
export type Vocabulary = 'xsb' | 'ragen';

/** The character written for each tile code, per vocabulary. */
export const TILE_CHARACTERS: Readonly<Record<Vocabulary, readonly string[]>> = {
  xsb: ['#', ' ', '.', '*', '$', '@', '+'],
  ragen: ['#', '_', 'O', '√', 'X', 'P', 'S'],
};

/** The tile code of each character read, per vocabulary. Internal. */
export const TILE_OF_CHARACTER: Readonly<Record<Vocabulary, ReadonlyMap<string, number>>> = {
  xsb: new Map([
    ['#', Tile.Wall],
    [' ', Tile.Floor],
    ['-', Tile.Floor],
    ['_', Tile.Floor],
    ['.', Tile.Target],
    ['*', Tile.BoxOnTarget],
    ['$', Tile.Box],
    ['@', Tile.Player],
    ['+', Tile.PlayerOnTarget],
  ]),
  ragen: new Map([
    ['#', Tile.Wall],
    ['_', Tile.Floor],
    ['O', Tile.Target],
    ['√', Tile.BoxOnTarget],
    ['X', Tile.Box],
    ['P', Tile.Player],
    ['S', Tile.PlayerOnTarget],
  ]),
};
