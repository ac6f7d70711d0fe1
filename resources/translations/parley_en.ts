<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name></name>
    <message numerus="yes">
        <location filename="../../desktop/engine/attachments/inputs.py" line="267"/>
        <source>%n image(s) were read with OCR — {engine}</source>
        <translation>
            <numerusform>%n image was read with OCR — {engine}</numerusform>
            <numerusform>%n images were read with OCR — {engine}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/turn/generation.py" line="410"/>
        <source>Reading %n image(s) with OCR…</source>
        <translation>
            <numerusform>Reading %n image with OCR…</numerusform>
            <numerusform>Reading %n images with OCR…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/storage/transfer.py" line="113"/>
        <source>%n message(s) being imported, e.g. {example}, already belong to another conversation. Nothing was imported, so neither conversation is changed.</source>
        <translation>
            <numerusform>%n message being imported, {example}, already belongs to another conversation. Nothing was imported, so neither conversation is changed.</numerusform>
            <numerusform>%n messages being imported, e.g. {example}, already belong to another conversation. Nothing was imported, so neither conversation is changed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/long_text.py" line="39"/>
        <source>… and %Ln more character(s), not shown.</source>
        <translation>
            <numerusform>… and %Ln more character, not shown.</numerusform>
            <numerusform>… and %Ln more characters, not shown.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/long_text.py" line="44"/>
        <source>… %Ln character(s) not shown …</source>
        <translation>
            <numerusform>… %Ln character not shown …</numerusform>
            <numerusform>… %Ln characters not shown …</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="176"/>
        <source>%Ln token(s)</source>
        <translation>
            <numerusform>%Ln token</numerusform>
            <numerusform>%Ln tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/usage.py" line="72"/>
        <source>%Ln of the models used have no price (Settings → Usage &amp; models)</source>
        <translation>
            <numerusform>%Ln of the models used has no price (Settings → Usage &amp; models)</numerusform>
            <numerusform>%Ln of the models used have no price (Settings → Usage &amp; models)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="149"/>
        <source>… and %Ln more line(s)</source>
        <translation>
            <numerusform>… and %Ln more line</numerusform>
            <numerusform>… and %Ln more lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="291"/>
        <source>… and %Ln more line(s) of the change</source>
        <translation>
            <numerusform>… and %Ln more line of the change</numerusform>
            <numerusform>… and %Ln more lines of the change</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/find.py" line="134"/>
        <source>%Ln match(es)</source>
        <translation>
            <numerusform>%Ln match</numerusform>
            <numerusform>%Ln matches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/visible_text.py" line="100"/>
        <source>… %Ln line(s) not shown …</source>
        <translation>
            <numerusform>… %Ln line not shown …</numerusform>
            <numerusform>… %Ln lines not shown …</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/chatbox.py" line="386"/>
        <source>%n image(s) or file(s) were attached in Chatbox, but its backup does not hold them; a notice marks each place.</source>
        <translation>
            <numerusform>%n image or file was attached in Chatbox, but its backup does not hold it; a notice marks the place.</numerusform>
            <numerusform>%n images or files were attached in Chatbox, but its backup does not hold them; a notice marks each place.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/cherry.py" line="151"/>
        <source>%n image(s) or file(s) attached in Cherry Studio were not imported.</source>
        <translation>
            <numerusform>%n image or file attached in Cherry Studio was not imported.</numerusform>
            <numerusform>%n images or files attached in Cherry Studio were not imported.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="193"/>
        <source>This answer cited %n source(s) in Cherry Studio.</source>
        <translation>
            <numerusform>This answer cited %n source in Cherry Studio.</numerusform>
            <numerusform>This answer cited %n sources in Cherry Studio.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/lobechat.py" line="556"/>
        <source>%n image(s) were attached here in LobeChat; they were not imported.</source>
        <translation>
            <numerusform>%n image was attached here in LobeChat; it was not imported.</numerusform>
            <numerusform>%n images were attached here in LobeChat; they were not imported.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/chatgpt.py" line="97"/>
        <source>Only this file was chosen, not the whole export, so %n image(s) and file(s) of its chats cannot be imported. Choose the export&apos;s zip file to bring them in too.</source>
        <translation>
            <numerusform>Only this file was chosen, not the whole export, so %n image or file of its chats cannot be imported. Choose the export&apos;s zip file to bring it in too.</numerusform>
            <numerusform>Only this file was chosen, not the whole export, so %n images and files of its chats cannot be imported. Choose the export&apos;s zip file to bring them in too.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/chatgpt.py" line="248"/>
        <source>%n image(s) or file(s) shown in ChatGPT are not in the export or cannot be shown in Parley; a note marks each place.</source>
        <translation>
            <numerusform>%n image or file shown in ChatGPT is not in the export or cannot be shown in Parley; a note marks its place.</numerusform>
            <numerusform>%n images or files shown in ChatGPT are not in the export or cannot be shown in Parley; a note marks each place.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/jan.py" line="227"/>
        <source>%n image(s) or file(s) attached in Jan are not among the thread&apos;s files; they were not imported.</source>
        <translation>
            <numerusform>%n image or file attached in Jan is not among the thread&apos;s files; it was not imported.</numerusform>
            <numerusform>%n images or files attached in Jan are not among the thread&apos;s files; they were not imported.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/sync/errors.py" line="66"/>
        <source>%n change(s) from {device} could not be read and were passed over; its other changes were applied. That computer may run a newer or a faulty Parley.</source>
        <translation>
            <numerusform>%n change from {device} could not be read and was passed over; its other changes were applied. That computer may run a newer or a faulty Parley.</numerusform>
            <numerusform>%n changes from {device} could not be read and were passed over; its other changes were applied. That computer may run a newer or a faulty Parley.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/approval_dialog.py" line="80"/>
        <source>Allow %n tool call(s)?</source>
        <translation>
            <numerusform>Allow %n tool call?</numerusform>
            <numerusform>Allow %n tool calls?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BackupViewModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup.py" line="326"/>
        <source>Backed up: %1 (%2); removed %Ln older backup(s).</source>
        <translation>
            <numerusform>Backed up: %1 (%2); removed %Ln older backup.</numerusform>
            <numerusform>Backed up: %1 (%2); removed %Ln older backups.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FoundServerRow</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/found_servers.py" line="26"/>
        <source>%n model(s)</source>
        <translation>
            <numerusform>%n model</numerusform>
            <numerusform>%n models</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportExportViewModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="200"/>
        <source>%Ln conversation(s)</source>
        <translation>
            <numerusform>%Ln conversation</numerusform>
            <numerusform>%Ln conversations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="201"/>
        <source>%Ln message(s)</source>
        <translation>
            <numerusform>%Ln message</numerusform>
            <numerusform>%Ln messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="202"/>
        <source>%Ln branch(es)</source>
        <translation>
            <numerusform>%Ln branch</numerusform>
            <numerusform>%Ln branches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="203"/>
        <source>%Ln image(s)</source>
        <translation>
            <numerusform>%Ln image</numerusform>
            <numerusform>%Ln images</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="220"/>
        <source>%Ln image(s) or file(s) will be attached to their messages.</source>
        <translation>
            <numerusform>%Ln image or file will be attached to its message.</numerusform>
            <numerusform>%Ln images or files will be attached to their messages.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="226"/>
        <source>%Ln image(s) or file(s) will be left out; a note marks each place.</source>
        <translation>
            <numerusform>%Ln image or file will be left out; a note marks its place.</numerusform>
            <numerusform>%Ln images or files will be left out; a note marks each place.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="292"/>
        <source>Imported %Ln conversation(s)</source>
        <translation>
            <numerusform>Imported %Ln conversation</numerusform>
            <numerusform>Imported %Ln conversations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="294"/>
        <source>(%Ln message(s))</source>
        <translation>
            <numerusform>(%Ln message)</numerusform>
            <numerusform>(%Ln messages)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="297"/>
        <source>Imported %Ln message(s)</source>
        <translation>
            <numerusform>Imported %Ln message</numerusform>
            <numerusform>Imported %Ln messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="299"/>
        <source>%Ln image(s) or file(s) attached</source>
        <translation>
            <numerusform>%Ln image or file attached</numerusform>
            <numerusform>%Ln images or files attached</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="303"/>
        <source>%Ln conversation(s) already here received new messages</source>
        <translation>
            <numerusform>%Ln conversation already here received new messages</numerusform>
            <numerusform>%Ln conversations already here received new messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="307"/>
        <source>%Ln were already here</source>
        <translation>
            <numerusform>%Ln was already here</numerusform>
            <numerusform>%Ln were already here</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="314"/>
        <source>%Ln could not be imported: %1</source>
        <translation>
            <numerusform>%Ln conversation could not be imported: %1</numerusform>
            <numerusform>%Ln conversations could not be imported: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="323"/>
        <source>%Ln image(s) or file(s) could not be attached (listed below)</source>
        <translation>
            <numerusform>%Ln image or file could not be attached (listed below)</numerusform>
            <numerusform>%Ln images or files could not be attached (listed below)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>KnowledgeSettingsModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="249"/>
        <source>Cancelled · %n file(s) indexed</source>
        <translation>
            <numerusform>Cancelled · %n file indexed</numerusform>
            <numerusform>Cancelled · %n files indexed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="251"/>
        <source>Stopped · %n file(s) indexed</source>
        <translation>
            <numerusform>Stopped · %n file indexed</numerusform>
            <numerusform>Stopped · %n files indexed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="253"/>
        <source>Indexed %n file(s)</source>
        <translation>
            <numerusform>Indexed %n file</numerusform>
            <numerusform>Indexed %n files</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>McpImportDialog</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="229"/>
        <source>Add %n server(s)</source>
        <translation>
            <numerusform>Add %n server</numerusform>
            <numerusform>Add %n servers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>McpServersModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="166"/>
        <source>%n MCP server(s) added</source>
        <translation>
            <numerusform>%n MCP server added</numerusform>
            <numerusform>%n MCP servers added</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="266"/>
        <source>%n server(s) added, turned off: turn one on to use it.</source>
        <translation>
            <numerusform>%n server added, turned off: turn it on to use it.</numerusform>
            <numerusform>%n servers added, turned off: turn one on to use it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProvidersPage</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="314"/>
        <source>%n model(s) found and saved.</source>
        <translation>
            <numerusform>%n model found and saved.</numerusform>
            <numerusform>%n models found and saved.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="315"/>
        <source>%n model(s) found.</source>
        <translation>
            <numerusform>%n model found.</numerusform>
            <numerusform>%n models found.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RestoreViewModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="172"/>
        <source>%Ln conversation(s) added</source>
        <translation>
            <numerusform>%Ln conversation added</numerusform>
            <numerusform>%Ln conversations added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="174"/>
        <source>%Ln message(s) added</source>
        <translation>
            <numerusform>%Ln message added</numerusform>
            <numerusform>%Ln messages added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="177"/>
        <source>%Ln conversation(s) updated</source>
        <translation>
            <numerusform>%Ln conversation updated</numerusform>
            <numerusform>%Ln conversations updated</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="179"/>
        <source>%Ln memory(-ies) added</source>
        <translation>
            <numerusform>%Ln memory added</numerusform>
            <numerusform>%Ln memories added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="182"/>
        <source>%Ln memory(-ies) updated</source>
        <translation>
            <numerusform>%Ln memory updated</numerusform>
            <numerusform>%Ln memories updated</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="184"/>
        <source>%Ln file(s) added</source>
        <translation>
            <numerusform>%Ln file added</numerusform>
            <numerusform>%Ln files added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="185"/>
        <source>%Ln assistant(s) added</source>
        <translation>
            <numerusform>%Ln assistant added</numerusform>
            <numerusform>%Ln assistants added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="186"/>
        <source>%Ln prompt(s) added</source>
        <translation>
            <numerusform>%Ln prompt added</numerusform>
            <numerusform>%Ln prompts added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="196"/>
        <source>%Ln message(s) deleted on this computer stayed deleted.</source>
        <translation>
            <numerusform>%Ln message deleted on this computer stayed deleted.</numerusform>
            <numerusform>%Ln messages deleted on this computer stayed deleted.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="204"/>
        <source>%Ln provider(s) were added without their API keys: enter them in Settings → Providers.</source>
        <translation>
            <numerusform>%Ln provider was added without its API key: enter it in Settings → Providers.</numerusform>
            <numerusform>%Ln providers were added without their API keys: enter them in Settings → Providers.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SettingsViewModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/settings.py" line="328"/>
        <source>Connected: %n model(s) available.</source>
        <translation>
            <numerusform>Connected: %n model available.</numerusform>
            <numerusform>Connected: %n models available.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SyncWords</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="41"/>
        <source>%n change(s) here wait to be sent.</source>
        <translation>
            <numerusform>%n change here waits to be sent.</numerusform>
            <numerusform>%n changes here wait to be sent.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="75"/>
        <source>A reply from another device brought back %n chat(s) you had deleted here:</source>
        <translation>
            <numerusform>A reply from another device brought back %n chat you had deleted here:</numerusform>
            <numerusform>A reply from another device brought back %n chats you had deleted here:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="162"/>
        <source>Synced: %n change(s) received, %1 sent.</source>
        <translation>
            <numerusform>Synced: %n change received, %1 sent.</numerusform>
            <numerusform>Synced: %n changes received, %1 sent.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WebSearchSettingsModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="244"/>
        <source>Found %n result(s): %1</source>
        <translation>
            <numerusform>Found %n result: %1</numerusform>
            <numerusform>Found %n results: %1</numerusform>
        </translation>
    </message>
</context>
</TS>
