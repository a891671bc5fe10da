<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <source>Terminate %1 on %2?

Lost for good: the instance and its local disk — everything not on a persistent filesystem or volume.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Kept, and still billing storage: filesystem %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Persistent volumes you created separately are kept and keep billing storage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Billing for the instance stops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop %1 on %2?

Compute billing stops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Lost: the container disk (everything outside the volume).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Kept, and still billing storage while stopped: the %1 GB volume disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Kept, and still billing storage while stopped: the volume disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Starting again may fail if the GPU was rented by someone else meanwhile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart %1 on %2?

Running programs and open SSH sessions end; files on disk are kept. Billing continues.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start %1 on %2?

Compute billing resumes at %3/h.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exited %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>killed (SIG%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>killed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bash is not installed on %1; jobs need it (install it with the package manager).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no job named &quot;%1&quot; on %2 (see `gantry-cli job list`).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not installed on %2: install it (e.g. apt-get install %1) or let Gantry choose tmux, screen or nohup.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot start the job on %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job command failed on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; is still running on %2; stop it before running it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A job named &quot;%1&quot; already exists on %2 (%3). Pick another name, rerun it, or remove it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; started but its state could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; has not started yet; try again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; on %2 is still running after SIGKILL; a process may be stuck in the kernel (check `ps` on the instance).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; is still running on %2; stop it before removing it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Following the log of &quot;%1&quot; stopped at byte %2: %3 Reconnect to resume from there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job name is empty; give a name such as &quot;train&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid job name: use up to 64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an environment assignment: write KEY=VALUE, e.g. CUDA_VISIBLE_DEVICES=0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No command to run: give the command line of the job.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose either a virtualenv or a conda environment, not both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The results folder %1 does not exist on %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listing the result paths on %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The results of %1 are still downloading; wait for the download to finish (or cancel it) before terminating, or they are lost with the instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading the results of %1 failed%2. Retry the download, or confirm that you want to terminate without them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the price cache %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 endpoint &quot;%2&quot; is not a valid URL (expected https://host[:port]).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refusing plain http:// for the %1 endpoint %2: the API key would travel unencrypted. Use https://, or http:// only on 127.0.0.1/localhost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 endpoint must start with https:// (got &quot;%2&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save a backup of %1 to %2; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No terminal emulator found (tried $TERMINAL, x-terminal-emulator, gnome-terminal, konsole, xterm…). Run this in a terminal instead: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not start %1. Run this in a terminal instead: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jupyter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TensorBoard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other port</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Transfer</name>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the local file %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 became shorter while it was being uploaded. Retry to upload the new version from the start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 became shorter while it was being downloaded. Retry to download the new version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1 failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1 returned no data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2. Free some space locally and retry; the download continues where it stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local file %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the local file %1: %2. Check its permissions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed since the interrupted upload; starting it again from zero.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not enough space on %1 for %2: %3 free in %4, %5 needed. Free some space (or pick another directory) and retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload of %1 stopped before the end; retry to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed while it was being uploaded. Retry to upload the new version from the start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Integrity check failed for %1: SHA-256 of %2 on %3 is %4, expected %5. The damaged copy was removed; retry to upload it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bytes %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not verified: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 appeared on %2 during the upload; the upload is kept as %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 is not a regular file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed on the host since the interrupted download; starting again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Integrity check failed for %1: SHA-256 is %2 here and %3 on %4. The damaged copy was removed; retry to download it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 appeared during the download; the download is kept as %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the resume journal %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local folder %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the local folder %1: permission denied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped symlink %1 (symlinks are not followed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped broken symlink %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped symlink to a folder %1 (folder links are not followed, to avoid loops).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the local folder %1: permission denied. Fix its permissions or leave it out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped %1: not a regular file (device, socket or pipe).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the local file %1: permission denied. Fix its permissions or leave it out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot compute SHA-256 of %1 on the host: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot check the chunks of %1 on the host: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk on %1 is full: %2 free in %3, %4 more needed. The partial file %5 is kept; free some space and retry to continue where it stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open a channel to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 offers no SFTP service (%2). Enable the sftp Subsystem in the server&apos;s sshd_config.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answered the SFTP handshake with an unexpected message.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection to %1 lost during the transfer (%2). It resumes from where it stopped once the host is reachable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server closed the SFTP channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer for %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>malformed SFTP reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 on %3: unexpected SFTP reply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed: %2 does not exist on %3. Check the path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed: permission denied for %2 on %3. Pick a directory the SSH user can write, or fix its permissions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: unexpected end of file %2 on %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not supported by the SFTP server on %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed for %2 on %3: %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening for writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closing the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creating the directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 exists and is not a directory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removing the directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Renaming</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking free space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flushing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Truncating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists%2. Choose what to do: overwrite, resume, skip or rename (CLI: --on-conflict).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a broken symlink.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 is a file, not a directory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The destination folder %1 does not exist on %2. Create it first, or end the destination with &apos;/&apos; to have it created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 exists and is a %3; the source is a %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists on %2; skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 is already identical.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists on %2 and differs from %3; resume cannot continue it. Choose overwrite or rename.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a file, not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists; skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is already identical.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists and differs from %2 on %3; choose overwrite or rename.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No saved host named %1; add it again to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused; resumes where it stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is damaged; the transfer list starts empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk on %1 is full while writing into %2 (about %3 still to send). Files already verified are kept; free some space and retry to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Permission denied writing into %1 on %2. Pick a directory the SSH user can write.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpacking into %1 on %2 failed: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed while it was being uploaded (it became shorter). Retry to upload the new version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed while it was being uploaded (it grew). Retry to upload the new version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection to %1 lost during the upload. It resumes from the last verified batch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Integrity check failed on %1 for %n file(s) in %2, e.g. %3. Retry to send them again.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 changed since the interrupted upload; checking every file again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists on %2 (and differs). Choose overwrite, skip, resume or rename.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) already on the host were left as they are.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 runs no tar; files were sent one by one over SFTP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot list %1 on %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the local folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading %1 from %2 broke off: %3. Retry to fetch it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped %1: not a regular file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists here (and differs). Choose overwrite, skip, resume or rename.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2. Free some space and retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading %1 from %2 broke off. Retry to fetch it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Integrity check failed for %n file(s), e.g. %1 (changed on the host while downloading?). Retry to fetch them again.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>facts</name>
    <message>
        <source>no NVIDIA driver found (nvidia-smi is not installed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use an image with the NVIDIA driver (Lambda Stack, a RunPod PyTorch template, an AutoDL CUDA image), or install it: sudo apt install nvidia-driver-550 (then reboot)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi fails: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the driver was upgraded without a reboot: reboot the instance (or reload the nvidia kernel modules)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check `dmesg | grep -i nvrm` for Xid errors; if the GPU fell off the bus, ask the provider for another machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch %1 cannot use the GPU (torch.cuda.is_available() is False; built for CUDA %2, driver supports CUDA %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (CPU-only build)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install a CUDA build of PyTorch no newer than the driver&apos;s CUDA, e.g. pip install torch --index-url https://download.pytorch.org/whl/cu121</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>disk nearly full: %1 GiB free on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete old checkpoints or caches (~/.cache/pip, ~/.cache/huggingface), or attach a larger volume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi lists no GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the facts script did not complete on %1 (is the login shell POSIX-compatible?)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::HostStore</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is damaged (%2 at byte %3); fix or move it away, Gantry will start with no saved hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a saved host needs a name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host name &quot;%1&quot; may not contain &apos;@&apos;, &apos;:&apos; or &apos;/&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host &quot;%1&quot; needs an address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a host named &quot;%1&quot; exists already; pick another name or remove it first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no saved host named &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no saved host named &quot;%1&quot; (see: gantry-cli hosts list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::app::AppServices</name>
    <message>
        <source>Results</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Uploading %n item(s) to %1…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Job finished on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ended (%2).
%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gantry: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transfers are still running or queued; they resume next time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instances</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transfers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fleet monitor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instance ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is up; connecting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle GPU on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gantry cannot stop this machine: it was not launched through a provider Gantry manages. Stop it in your provider&apos;s console.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminated after the idle countdown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped after the idle countdown.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::app::ResultsGuard</name>
    <message>
        <source>Transfers pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transfers to or from %1 are still queued or running; terminating loses them. Terminate anyway?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Results still downloading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Results not home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminate anyway?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring results home first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has result paths (%2). Download them to %3 before terminating?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminate without</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to %1 first: its result paths are looked up on the instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No result files matched on %1; nothing to download.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Downloading %n result item(s) from %1 to %2…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n result download(s) failed; see Transfers</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Some results from %1 did not arrive; retry them in Transfers before terminating.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Results of %1 are home in %2; you can terminate it now.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::cost</name>
    <message>
        <source>%1 (%2) is stopped, but its %3 GB volume disk still bills storage until you terminate it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) is stopped, but its disk still bills storage until you terminate it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GB used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volume %1 on %2 (%3) bills storage whether or not an instance uses it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::cost::Ledger</name>
    <message>
        <source>Cannot open the cost ledger %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost ledger error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cost ledger has no instance %1 on %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>terminated outside Gantry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A budget period is &quot;daily&quot; or &quot;monthly&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::jobs::JobService</name>
    <message>
        <source>%1 is not a saved host; add it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs on %1 are not watched; select the machine first.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::monitor</name>
    <message>
        <source>The monitor loop on %1 ended%2; reconnecting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No data from %1 for %2 s: the connection seems dead; reconnecting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi on %1 rejects the field &quot;%2&quot; that Gantry needs; update the NVIDIA driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi on %1 rejected too many fields; update the NVIDIA driver.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::monitor::AlertEngine</name>
    <message>
        <source>nvidia-smi stopped responding: %1. Check `dmesg` for Xid errors; a reboot of the instance usually recovers the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no details</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>All %n GPU(s) have been idle for %1 minutes while the machine is billing. Stop it if you are done.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Data loading is the bottleneck: GPU utilization averages %1 % while a CPU core is at %2 %. Raise DataLoader num_workers or move preprocessing to the GPU or offline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1 memory is %2 % full (%3 of %4 MiB): the next allocation may fail with CUDA out of memory. Lower the batch size or enable gradient checkpointing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1 is throttling (%2) at %3 °C: clocks are reduced. Report it to the provider if it persists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1 is held back by the power brake (external power supply limit): clocks are reduced. Report it to the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1 PCIe link runs at Gen%2 x%3 under load, below its maximum Gen%4 x%5: host-to-GPU copies are slower. Ask the provider or pick another instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>GPU %1 reported %n new uncorrected ECC error(s): results may be wrong. Save your work and ask the provider for another GPU.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gantry::monitor::IdlePolicy</name>
    <message>
        <source>transfers are still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>jobs are still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not going to %1 %2: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the GPUs are busy again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::monitor::Sampler</name>
    <message>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Retrying in %2 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA driver found on %1: showing host metrics only. Install the NVIDIA driver (nvidia-smi) to see the GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sample from %1 for 3 intervals; showing the last one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The monitor stream on %1 ended.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::providers</name>
    <message>
        <source>The provider did not answer in time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh-keygen could not create %1: %2 (is openssh-client installed?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lambda Cloud</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown provider &quot;%1&quot; (known: %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API key for %1. Set %2, or store one with: gantry-cli provider-key set %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::providers::LambdaProvider</name>
    <message>
        <source>Lambda Cloud</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Billed per minute from launch to terminate. Instances cannot be stopped; terminating loses the local disk. Filesystems bill per GB-month.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no &quot;data&quot; field in the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key was rejected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service had an internal error (HTTP %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request failed with HTTP %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lambda Cloud: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check your API key (gantry-cli provider-key set lambda) or create a new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick another region or instance type (the price table shows where capacity is).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lambda Cloud sent instance types in an unknown shape.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the instance list is not an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the instance has no id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Lambda launch needs an instance type, a region and exactly one SSH key name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the launch reply has no instance id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lambda Cloud has no SSH key named &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::providers::LaunchWatcher</name>
    <message>
        <source>The provider went away while waiting for the instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instance %1 ended up %2 instead of running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gantry terminated it so it does not keep billing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminating it failed too (%1): terminate it yourself, it may be billing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instance %1 did not become active within %2 s. %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::providers::Provider</name>
    <message>
        <source>%1 cannot %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stop an instance (terminate it instead; its local disk is lost)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start a stopped instance</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::providers::RestProvider</name>
    <message>
        <source>%1 sent a reply Gantry cannot read (%2). The service may be having problems; try again in a minute.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate limited by %1 after %2 attempts; try again in %3 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate limited by %1 after %2 attempts; wait a minute and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot connect to %1 at %2 (connection refused). Check your network, or the endpoint if you set one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot resolve the host of %1 (%2). Check your network connection and DNS.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 did not answer in time (%2). The service may be slow; try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secure connection to %1 at %2 failed: %3. Gantry never sends your API key without verified TLS; check the endpoint URL, your clock and any proxy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request to %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Talking to %1 at %2 failed: %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::providers::RunPodProvider</name>
    <message>
        <source>RunPod</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Billed per second while running. A stopped pod still bills its volume disk (at twice the running rate); the container disk is wiped on stop.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check your API key (gantry-cli provider-key set runpod).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add credit to your RunPod account; a deploy needs at least one hour&apos;s worth.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your account has no access to this resource or GPU pool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod had an internal error; try again shortly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Price for one GPU; up to %1 per pod.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any data center</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no &quot;gpus&quot; list in the catalog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no &quot;pods&quot; list in the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the pod has no id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A RunPod launch needs a GPU type.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod: no account SSH key named &quot;%1&quot;. Add it first (gantry-cli keys add --provider runpod NAME FILE.pub).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod: your account has no SSH keys, so the pod would be unreachable. Add one first (gantry-cli keys add --provider runpod NAME FILE.pub).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the new pod has no id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no &quot;keys&quot; list in the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod cannot generate keys; give an OpenSSH public key (&quot;ssh-ed25519 AAAA… comment&quot;), e.g. from gantry-cli keys generate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod has no account SSH key named &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RunPod PyTorch (CUDA 12.8)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::providers::SandboxProvider</name>
    <message>
        <source>Local sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is charged: instances are sshd processes on this machine. Prices are pretend, to try budgets and meters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This machine (127.0.0.1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sshd, no GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free: a real sshd on 127.0.0.1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1x Sandbox GPU (pretend)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pretend type with no GPU and a pretend price; nothing is charged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The operating system Gantry runs on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: Specified instance does not exist. [global/object-does-not-exist] (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: the record of instance %1 is damaged; terminate it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: cannot run %1 (%2). Install openssh-server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: sshd did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: unknown instance type &quot;%1&quot; (try sandbox-cpu). [global/invalid-parameters]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: Not enough capacity to fulfill launch request in region &quot;%1&quot;; the only region is &quot;local&quot;. [instance-operations/launch/insufficient-capacity]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: no SSH key named &quot;%1&quot;. Add it with gantry-cli keys add --provider sandbox. [global/object-does-not-exist]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot delete %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: The request conflicts with the current state of the resource (it is still booting). [global/conflict]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An SSH key name must have 1 to 64 characters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox: an SSH key named &quot;%1&quot; already exists. [global/duplicate]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local sandbox has no SSH key named &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ssh::Connection</name>
    <message>
        <source>connection to %1 lost; reconnect when the machine is reachable again</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::tunnel::TunnelManager</name>
    <message>
        <source>%1 is not a port number (1–65535).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a local port number (1–65535, or empty for a free one).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port %1 on %2 is already forwarded to http://127.0.0.1:%3/; use that tunnel or close it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local port %1 already carries the tunnel to %2:%3; pick another local port.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::tunnel::TunnelWorker</name>
    <message>
        <source>Nothing listens on port %1 on %2; start it first (e.g. `jupyter lab --no-browser --port %1` or `tensorboard --logdir runs --port %1`).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local port %1 is in use (%2); pick another one or leave it empty for a free port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot listen on 127.0.0.1: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The SSH connection to %1 was lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The SSH connection to %1 was lost; the tunnel to port %2 is closed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::AddHostDialog</name>
    <message>
        <source>Add SSH host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the login command, e.g. ssh -p 23456 root@connect.example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>root, ubuntu, …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic (agent, keys, then password)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored in the system keychain, never in a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> /h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Login command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hourly price</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the machine a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name may not contain spaces, &apos;@&apos;, &apos;:&apos; or &apos;/&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the host name or IP address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the private key file.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::BoundedLogView</name>
    <message>
        <source>Select a job to see its output since it started.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::CostPanel</name>
    <message>
        <source>no budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save budgets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Daily budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Monthly budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export cost ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You have spent %1 of your %2 budget of %3. Stop or terminate instances to stop the bill growing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 % of your %2 budget used (%3 of %4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running now: %1/h · Total: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 of %3 (%4 %)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::DoctorModel</name>
    <message>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::DragOutMimeData</name>
    <message>
        <source>Drag and drop</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::DragOutStaging</name>
    <message>
        <source>The drag was cancelled; nothing was copied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The transfer queue is gone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not download %1 for the drag: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The download of %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading from %1 for the drop…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The download for the drop is still running; it continues in the transfers panel.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::FilesTab</name>
    <message>
        <source>Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to %1 to browse its files. You can drop files here once connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a machine to see its files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) in %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>New folder name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists; pick another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1 on %2? Folders are deleted with everything in them. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Delete %n item(s) in %1 on %2? This cannot be undone.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot delete %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n upload(s) queued to %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Download to</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Downloading %n item(s) for the drop…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Drag cancelled; its downloads were cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied to the drop target (staged in %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::InstancesModel</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Region</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Price</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::InstancesPanel</name>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminate…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot stop instances; terminate instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for %1 to boot…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never became active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running at %2@%3:%4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirm %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 requested.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::JobListModel</name>
    <message>
        <source>Job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::JobsTab</name>
    <message>
        <source>Run…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rerun</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close tunnel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SIGINT, then SIGTERM and SIGKILL if the job does not end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tunnels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward a port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port on the machine:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VS Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Results to bring home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One path or pattern per line, e.g.
outputs/
*.pth
runs/</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloaded before this machine is terminated; relative to the home directory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ended at once (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs in ~/.gantry/jobs on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to %1 to see and run its jobs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the job on %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping %1: SIGINT, then SIGTERM and SIGKILL if it does not end…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the job %1 and its log from %2?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>port %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 → port %3 (%4 connections)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: opening…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening a tunnel to port %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port %1 is at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened a terminal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VS Code cannot pass port %1 in its link; turn on &quot;Write ssh config entries&quot; so it finds this machine by name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open %1; is VS Code with the Remote - SSH extension installed?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: these are downloaded before %1 is terminated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::KeysDialog</name>
    <message>
        <source>SSH keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate new key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy public key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private keys with a public half (.pub):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied. Paste it into your provider&apos;s SSH keys page or the machine&apos;s ~/.ssh/authorized_keys.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate ed25519 key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private key file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key pair found. Generate one: Gantry writes the private key with mode 0600.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1 (mode 0600). Fingerprint %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::LanguageMenu</name>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language changes when Gantry next starts.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::LaunchDialog</name>
    <message>
        <source>Launch an instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB volume disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No volume disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional, e.g. training-1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Region</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Persistent storage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Price</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planned duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Launch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (no capacity now)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate a Gantry key and upload it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None (the local disk is lost on terminate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (mounted at %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>$%1 per hour ($%2 per GPU-hour)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about $%1 for %2 h; plan for $%3 (×%4 safety margin)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No region has capacity for this type right now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uploading key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Launching…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::LedgerModel</name>
    <message>
        <source>Instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Price at launch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Launched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Terminated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::MachineTableModel</name>
    <message>
        <source>~/.ssh/config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Price</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::MainWindow</name>
    <message>
        <source>Gantry — cloud GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passphrase for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Machines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter machines by name, address or provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No machines yet: add an SSH host, import ~/.ssh/config, or launch an instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add host…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import ~/.ssh/config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH keys…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a machine first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host was saved, but its password was not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n host(s) in %1, %2 new.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Remove host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 from Gantry? The machine itself is not touched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New host key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is the first connection to %1:%2.

Its %3 host key fingerprint is
%4

Compare it with the fingerprint your provider shows (console or boot log). Trust it and connect? It will be recorded in %5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Login</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit Gantry?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit anyway?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::OverviewTab</name>
    <message>
        <source>Select a machine and connect to see its facts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) is not connected. Press Connect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gathering facts from %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operating system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cores — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GiB total, %2 GiB available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GiB free of %2 GiB on %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no NVIDIA driver found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver / CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / CUDA %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (CUDA %2), cuda.is_available() = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 looks ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) found; each comes with its fix below.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::PriceTableModel</name>
    <message>
        <source>%1 GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VRAM/GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vCPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>$/h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>$/GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity now</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::PricesPanel</name>
    <message>
        <source>Available now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU model, e.g. H100</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VRAM ≥ </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≤ $</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any price</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refreshing… (showing prices from %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading prices…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never refreshed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Updated %n min ago</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Updated %n h ago</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Updated %n days ago — refresh for current prices</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gantry::ui::RemoteDirModel</name>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Modified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::RunJobDialog</name>
    <message>
        <source>Run a job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>python train.py --epochs 10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from the command, e.g. train-20261130-164500</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>home directory; e.g. ~/project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one KEY=VALUE per line, e.g. CUDA_VISIBLE_DEVICES=0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a virtualenv to activate, e.g. ~/venv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a conda environment to activate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Working directory:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Virtualenv:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;onda env:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job runs in tmux (or screen, or nohup) on the machine and keeps running when Gantry closes or the connection drops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::TransferQueueModel</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2:%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1:%2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done (resumed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::TransfersPanel</name>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 already exists on %2. Files that differ:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists on %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep same-size files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep both (rename)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 running, %2 waiting, %3 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1/s · %2 left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transfers are still running. Stop them? Unfinished transfers resume when Gantry starts again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transfers to %1 are still running. Stop them? Files not yet transferred will be missing if the machine is terminated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transfers pending</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::TrayIcon</name>
    <message>
        <source>Show Gantry</source>
        <translation>显示 Gantry</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>gantry::ui::Verify</name>
    <message>
        <source>Pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::VerifyResultsModel</name>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::VerifyTab</name>
    <message>
        <source>Run verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload Gantry&apos;s GPU test program and run it for about a minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quick</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A shorter run (about 15 s): identity, bandwidth and compute rates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Doctor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the driver, PyTorch, disk, ECC, clocks and PCIe, with fixes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a machine and connect to verify its GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spec comparison and findings appear here after a run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready to verify %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to %1 to verify its GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected: connect to the machine first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running Doctor…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Doctor found no blocking problem.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Doctor found %n problem(s); each row says how to fix it.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How: %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1 vs %2 spec: memory bandwidth %3, FP32 %4, tensor %5 of the datasheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost: $%1 per measured tensor TFLOPS-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU could be tested; see Doctor below for the fix.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished in %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 TFLOPS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, $%1/TFLOPS-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 via %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::FleetOverview</name>
    <message>
        <source>No machine is being monitored. Connect to one to see it here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::MetricChart</name>
    <message>
        <source>%1: %2 at %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hours ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>minutes ago</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::MonitorTab</name>
    <message>
        <source>GPU utilization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU memory used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host RAM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busiest core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Critical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not monitoring: connect to a machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 10 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 3 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 48 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When idle: notify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When idle: stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When idle: terminate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do when every GPU of this billing machine has been idle for a while. Stop/terminate wait for a visible countdown you can cancel, and never run while transfers or jobs are active.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every GPU of %1 is idle: %2 in %3 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle countdown stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested: %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not monitoring: select and connect a machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: connect to start monitoring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No history for this machine yet: connect and let it sample first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export monitor history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::ProcessModel</name>
    <message>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not visible from this login)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command line</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::uilanguage</name>
    <message>
        <source>Cannot save the language setting in %1; check that the folder is writable.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::verify::Assessment</name>
    <message>
        <source>%1 shows %2 MiB of memory; a %3 has about %4 MiB. Part of the memory is missing or reserved: ask the provider, or pick another instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has %2 SMs; a %3 has %4. It may be a cut-down variant of the chip.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a %2-bit memory bus; a %3 has %4 bits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is power-capped at %2 W (default %3 W), so it cannot reach full speed. Ask the provider, or run `sudo nvidia-smi -pl %3` if you have root.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&apos;s PCIe link tops out at Gen%2; a %3 supports Gen%4 (the slot or riser limits it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has MIG enabled: you rented a slice, not the whole GPU. If the whole GPU was advertised, ask the provider (or run `sudo nvidia-smi -mig 0` and reset the GPU).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2: %3 %4 is %5% of the spec sheet&apos;s %6; rerun, and if it repeats ask the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The instance type advertises %n GPU(s) but only %1 answered. Ask the provider for a refund or relaunch.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is a %2, but the instance type advertises %3. Stop the instance and report it to the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a %2, but the instance type advertises %3 (%4 GB/s vs %5 GB/s memory bandwidth). Check you were billed for the right variant.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has %2 GiB of memory; the instance type advertises %3 GB per GPU. Ask the provider, or relaunch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2: ratio %3 is below Gantry&apos;s threshold, so it counts as %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in Gantry&apos;s spec table; it is judged by its own clocks only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ERROR: no GPU was tested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ERROR: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PASS: %1 healthy and at spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WARN: %1 works but underdelivers; see the warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAIL: %1 is faulty or not as advertised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 could not be fully tested</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::verify::Doctor</name>
    <message>
        <source>No NVIDIA GPU/driver found: nvidia-smi is not installed, so the NVIDIA driver is missing or this is not a GPU image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relaunch with the provider&apos;s GPU/CUDA image, or install the driver (`sudo apt install nvidia-driver-%1` or `sudo ubuntu-drivers install`), then reboot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi fails: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reboot the instance; if it persists, ask the provider for another machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>nvidia-smi works: %n GPU(s), driver %1, CUDA %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Driver %1 (CUDA %2) is too old for Gantry&apos;s verification program (needs %3 or newer); Verify will build it on the instance or fall back to PyTorch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick an image with driver %1 or newer, or upgrade: `sudo apt install nvidia-driver-%1` and reboot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 (CUDA %2) is older than CUDA 13 (driver %3): the verification program falls back to JIT-compiled PTX, and CUDA 13 software (e.g. PyTorch cu130 wheels) will not run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 is new enough for the verification program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has %2 MiB in use by a process this user cannot see (another container?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pid %1 (%2) uses %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No other process is using the GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU is already in use: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop those processes (`nvidia-smi` lists them; `kill PID`) before measuring, or ask the provider why a fresh instance is busy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MIG is off: each GPU is whole.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MIG is enabled on %1: processes see GPU slices, not whole GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>If you rented whole GPUs, run `sudo nvidia-smi -i N -mig 0` and reset the GPU (`sudo nvidia-smi -i N -r`), or ask the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start it: `sudo systemctl enable --now nvidia-fabricmanager` (install the nvidia-fabricmanager package matching driver %1 if missing), or ask the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 fabric state &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA fails with error 802 (system not yet initialized): on NVSwitch systems this means the NVIDIA Fabric Manager is not running (Fabric Manager: %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVLink fabric is not initialised: %1; CUDA will fail with error 802.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an NVSwitch system: Fabric Manager is not needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVSwitch system and Fabric Manager is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>This is an NVSwitch system (%n GPUs) but Fabric Manager is not running (%1); CUDA will fail with error 802.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>state unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clocks are throttled by hardware (cut to half or less): %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is a cooling or power-delivery fault of the machine: stop the instance and ask the provider for another one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clocks are reduced because the GPU runs hot: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watch temperatures in the Monitor tab; if it persists at low load, ask the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No thermal or power-brake throttling.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has %2 uncorrected ECC errors since boot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a row remap pending (needs a GPU reset)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ran out of spare memory rows (remapping failure)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a page retirement pending (needs a GPU reset)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has %2 rows remapped after uncorrectable errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 memory pages have been retired after ECC errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset the GPU (`sudo nvidia-smi -r -i N` with no processes on it) or reboot; if errors return, stop the instance and ask the provider for another machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The memory was repaired, but this GPU has had faults: keep an eye on it (Verify&apos;s memory test checks it now).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No uncorrected ECC errors and no pending row remaps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs x%2 of x%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs Gen%2 of Gen%3 under load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCIe link below its maximum: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Verify: it measures host↔device bandwidth under load. If the link stays low, the GPU sits in a slow slot or riser: ask the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCIe links at full width; %1 idle at a lower generation (normal power saving).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCIe links at their maximum generation and width.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2 W of %3 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power limits at their defaults.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power-capped below the default: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With root: `sudo nvidia-smi -i N -pl DEFAULT_WATTS`; otherwise ask the provider (it cuts throughput).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Python on the instance (PyTorch not checked).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch is not installed (nothing to check).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch %1 (CUDA %2) sees the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch %1 is a CPU-only build: it cannot use the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the driver first (see nvidia-smi).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch %1 is built for CUDA %2 but driver %3 supports only CUDA %4, so torch.cuda.is_available() is False.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install a matching build: `%1`, or upgrade the driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch %1 (CUDA %2) cannot use the GPU%3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check CUDA_VISIBLE_DEVICES and that the container has the GPU (`--gpus all`); see the other checks for driver problems.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2% full (%3 GiB free)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/dev/shm is only %1 MiB (PyTorch DataLoader workers crash)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free space (`du -xh / | sort -h | tail`, `pip cache purge`, `conda clean -a`) or attach a larger volume; for /dev/shm start the container with `--shm-size=16g`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk nearly full: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Low disk space: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk usage unknown (df printed nothing).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enough free disk space.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi cannot talk to the NVIDIA driver: the kernel module is not loaded (driver not installed for this kernel, or the module failed to load).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reboot; if it persists reinstall the driver for the running kernel (`sudo apt install --reinstall nvidia-driver-XXX` / DKMS) or relaunch with the provider&apos;s GPU image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVML/driver version mismatch: the driver was upgraded but the old kernel module is still loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVML/driver version mismatch: the user-space driver is %1 but the loaded kernel module is older (the driver was upgraded without a reboot).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reboot the instance (or stop GPU processes and reload the nvidia kernel modules).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver is loaded but sees no GPU: the GPU is not attached to this VM/container.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the container with the GPU (`docker run --gpus all`), check CUDA/NVIDIA_VISIBLE_DEVICES, or relaunch the instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A GPU has fallen off the bus (&quot;GPU is lost&quot;): hardware or power fault.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reboot to recover; if it happens again, stop the instance and ask the provider for another machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi cannot open a GPU (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reboot; if it persists, the GPU is faulty: ask the provider for another machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVML fails to start: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reboot; if it persists reinstall the driver or relaunch with the provider&apos;s GPU image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The doctor script did not finish, so some checks are missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run it again; if it keeps stopping, a command on the instance hangs (often nvidia-smi on a broken driver).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::verify::HistoryStore</name>
    <message>
        <source>Cannot create the config directory %1; check its permissions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the verification history %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot prepare the verification history %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the run in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The verification history is not open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the verification history: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::verify::Plan</name>
    <message>
        <source>the instance has no nvcc to build it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the instance&apos;s nvcc %1 is too old to build it (12.0 or newer needed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the instance&apos;s nvcc %1 is newer than its driver supports (CUDA %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, so Gantry builds the verification program on the instance with its nvcc %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this Gantry has no kernel sources to build on the instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2, so Gantry measures with PyTorch %3 instead (CUDA, a BF16 matmul rate, a copy rate).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2, and PyTorch with CUDA is not available: only a diagnosis is possible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi is %1 but PyTorch %2 sees the GPU, so Gantry measures with PyTorch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA GPU/driver found (nvidia-smi is not installed): only a diagnosis is possible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver does not work (%1): only a diagnosis is possible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This Gantry has no built gantry-verify (built without nvcc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundled gantry-verify is for %1 but the instance is %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 is older than the bundled gantry-verify needs (%2, CUDA 13)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 runs the bundled gantry-verify.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gantry::verify::RemoteVerifier</name>
    <message>
        <source>Verification cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The instance did not run Gantry&apos;s check script (exit %1); make sure the login shell can run `sh`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1 (%2); rebuild Gantry or pass --binary PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot upload %1: the instance&apos;s home disk is full; free space and retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot upload %1 to ~/.cache/gantry (%2); check the home directory is writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The uploaded %1 arrived damaged (checksum differs); retry the upload.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gantry-verify rejected its arguments (%1); this Gantry and its verification program do not match, rebuild both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The instance cannot execute the verification program (exit %1: %2); it may be mounted noexec or need another architecture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The verification program failed (exit %1)%2; rerun Verify, and if it repeats, run Doctor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This Gantry has no kernels/ sources to build on the instance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the verification program on the instance with its nvcc…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the verification program on the instance failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uploading the verification program…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running the verification program…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundled gantry-verify says the driver is too old</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; Gantry measures with PyTorch instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running the verification program built on the instance…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring with PyTorch…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the instance (driver, GPUs, tools)…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Rent, verify, use and watch cloud GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configuration directory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a screenshot of the window to FILE and quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select (and connect) a saved host.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a panel: machines, prices, instances, transfers, monitor or cost.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>secrets</name>
    <message>
        <source>the OS keychain refused (%1); on Linux start a Secret Service (GNOME Keyring or KWallet) and unlock it, or use an environment variable for this secret</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ssh</name>
    <message>
        <source>disconnected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host key not accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host key changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists already; choose another path or remove it first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not generate an ed25519 key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not export the new key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the key %1 (missing, encrypted or not a key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not create an SSH session (out of memory?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid ProxyJump &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection to %1 cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer from %1 within %2 s: the machine is down, the port is wrong, or a firewall drops the connection; check the address and that the instance is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot connect to %1: %2; check the host name and port, and that sshd runs there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sent no host key: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot hash the host key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host key for %1 changed — possible attack (or the instance was re-created); recorded %2 %3, now %4 %5; if you trust the new key, remove line %6 of %7 (ssh-keygen -R %8%9 -f %7) and connect again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host %1 is not known yet; its %2 key fingerprint is %3; compare it with the one your provider shows, then accept it (CLI: --accept-new-host-key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot record the host key in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the known hosts file %1: %2; check its permissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection to %1 broke during login: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh-agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (missing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot unlock key %1: wrong passphrase, or not a private key file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keyboard-interactive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>authentication failed for %1 (server accepts: %2; tried: %3); give the right key with -i KEYFILE or a password (--password-env VAR in the CLI), or add your public key to ~/.ssh/authorized_keys on the machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing usable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected to %1; reconnect first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open a channel to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 refused a new session channel (%2); the server&apos;s MaxSessions may be reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 refused to run a command: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot reach %1:%2 from %3 (%4): nothing listens on that port on the instance, or the server forbids forwarding (AllowTcpForwarding)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>command cancelled on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>command on %1 did not finish within %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection to %1 lost while a command ran</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SSH connection broke while reading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SSH connection broke while writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SSH connection broke</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unclosed &apos;[&apos; in host &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected text after &apos;]&apos; in &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid port &quot;%1&quot; in &quot;%2&quot; (expected 1–65535)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no host name in &quot;%1&quot; (expected [user@]host[:port])</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
