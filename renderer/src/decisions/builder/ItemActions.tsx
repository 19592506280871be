import {Icon} from "../../components/Icon.tsx";
import {DuplicateIcon} from "./DuplicateIcon.tsx";

type Props = {
    label: string,
    onUp?: () => void,
    onDown?: () => void,
    onDuplicate?: () => void,
    onRemove: () => void,
    testId: string
};

/** Move up / down, duplicate and remove buttons of a list item; a missing handler disables its button. */
export function ItemActions({label, onUp, onDown, onDuplicate, onRemove, testId}: Props) {
    return (
        <div className="item-actions">
            <button type="button" className="icon-btn" aria-label={`Move ${label} up`} disabled={!onUp} onClick={onUp} data-testid={`${testId}-up`}><Icon name="up" /></button>
            <button type="button" className="icon-btn" aria-label={`Move ${label} down`} disabled={!onDown} onClick={onDown} data-testid={`${testId}-down`}><Icon name="down" /></button>
            {onDuplicate && <button type="button" className="icon-btn" aria-label={`Duplicate ${label}`} onClick={onDuplicate} data-testid={`${testId}-duplicate`}><DuplicateIcon /></button>}
            <button type="button" className="icon-btn danger" aria-label={`Remove ${label}`} onClick={onRemove} data-testid={`${testId}-remove`}><Icon name="close" /></button>
        </div>
    );
}
