import {ApiErrorView} from "../../components/ApiErrorView.tsx";
import {toErrorInfo} from "../../runs/toErrorInfo.ts";
import {downloadErrorTitle} from "../utils/downloadErrorTitle.ts";

/** A download the gateway refused at once (400 bad source, 409 already downloading): a headline, then the error as sent. */
export function RequestError({error}: {error: unknown}) {
    const info = toErrorInfo(error);
    return (
        <div className="models-request-error" data-testid="download-request-error">
            <div className="strong">{downloadErrorTitle(info.code ?? "")}</div>
            <ApiErrorView error={info} />
        </div>
    );
}
