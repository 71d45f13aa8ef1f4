import { _, stringify, type CodeKeywordDefinition, type KeywordCxt } from 'ajv';

/**
 * The pod schema's `enumCaseless` keyword: one of the listed strings in any case. Marathon's
 * generated enum readers compare lower-cased values: `Oldest_First` is accepted.
 *
 * Defined by code generation rather than a `validate` function so that ajv's standalone code can
 * hold it: the validators are compiled when pacer is built, not when it starts
 * (`src/validation/validator-modules.ts`, `src/generated/`). A value that is not listed fails with
 * ajv's default error of a keyword (`keyword: 'enumCaseless'`, `params: {}`, `must pass
 * "enumCaseless" keyword validation`), the error the former `validate` function gave.
 */
export const ENUM_CASELESS_KEYWORD: CodeKeywordDefinition = {
  keyword: 'enumCaseless',
  type: 'string',
  schemaType: 'array',
  code(cxt: KeywordCxt) {
    const lowerCased = (cxt.schema as readonly string[]).map((v) => v.toLowerCase());
    cxt.fail(_`!${stringify(lowerCased)}.includes(${cxt.data}.toLowerCase())`);
  },
};
