/**
 * Marathon's message (its `theOnlyDefinedOptionIn` rule) when `version` or `scaleBy` of a group
 * update comes with any other field: a revert or a scale is the whole request (fact 71).
 */
export const ONLY_OPTION_MESSAGE = 'not allowed in conjunction with other properties.';
