/**
 * The macro layer (docs/generation.md, "The macro layer"): for each macro, its reference steps on an app's page
 * model, the method evidence a procedure phrasing requires, its standard attacks and its legitimate alternatives,
 * written once; templates compose them with `layered`.
 */
export { confirmDialog, type ConfirmOptions } from "./confirm_dialog.ts";
export { downloadFile, type DownloadOptions } from "./download.ts";
export { endsOnSibling, esc, formEncode, onPage, queryString, typed, visitedPath, visitedWith } from "./evidence.ts";
export { layered, type LayeredTemplate } from "./layered.ts";
export {
  type Alternative,
  type AlternativeKind,
  type Attack,
  type AttackKind,
  goal,
  procedure,
  type Segment,
  type Style,
  STYLES,
} from "./macro.ts";
export { navigateMenu } from "./navigate_menu.ts";
export { filterBoxes } from "./filter.ts";
export { openDetail } from "./open_detail.ts";
export { type NewTabOptions, openNewTab } from "./open_new_tab.ts";
export {
  type ListModel,
  type MenuModel,
  type PageModel,
  pageModel,
  type PagerModel,
  PAGES,
  type SearchModel,
} from "./pages.ts";
export { paginate } from "./paginate.ts";
export { reorderList } from "./reorder.ts";
export { search, searchedFor, targetOf } from "./search.ts";
export { type ControlOptions, type ControlPlace, controlSegment, type ListTarget, type Prefill } from "./control.ts";
export { selectKeys, selectOption } from "./select.ts";
export { type Scale, setSlider } from "./slider.ts";
export { chooseRadio } from "./radio.ts";
export { calendarClicks, pickDate } from "./date.ts";
export { chooseFromCombobox, type ComboboxModel, comboInput } from "./combobox.ts";
export { toggleCheckbox } from "./toggle.ts";
export { authenticateByForm, type AuthOptions, SIGN_IN, SIGNED_IN, signedOutAfter } from "./authenticate.ts";
export { type FormField, type FormOptions, formSegment, postPath, typedInto } from "./form.ts";
export { anotherYear, answeredInstead, type AnswerOptions, answerQuestion } from "./answer_question.ts";
export { type CopyOptions, copyToClipboard } from "./copy_to_clipboard.ts";
export { switchTab, type TabPage } from "./switch_tab.ts";
export { dragAndDrop, type DragOptions } from "./drag_and_drop.ts";
export type { BoardModel, TabStripModel } from "./pages.ts";
export { chooseStars } from "./radio.ts";
export type { StarsModel } from "./pages.ts";
export { toggleButton, type ToggleButtonOptions } from "./toggle.ts";
