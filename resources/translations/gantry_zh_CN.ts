<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChecksText</name>
    <message>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Doctor</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>the acceptance test</source>
        <translation>验收测试</translation>
    </message>
    <message>
        <source>%1 is already running on %2: wait for it or cancel it first.</source>
        <translation>%2 上已在运行%1：请等待它结束或先取消。</translation>
    </message>
    <message>
        <source>%1 is not connected: connect it in Machines, then run %2.</source>
        <translation>%1 未连接：请先在“机器”中连接它，再运行%2。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>Transfer</name>
    <message>
        <source>The operation on %1 was stopped; start it again to go on.</source>
        <translation>%1 上的操作已停止；请重新开始以继续。</translation>
    </message>
</context>
<context>
    <name>facts</name>
    <message>
        <source>no NVIDIA driver found (nvidia-smi is not installed)</source>
        <translation>未找到 NVIDIA 驱动（未安装 nvidia-smi）</translation>
    </message>
    <message>
        <source>nvidia-smi fails: %1</source>
        <translation>nvidia-smi 运行失败：%1</translation>
    </message>
    <message>
        <source>the driver was upgraded without a reboot: reboot the instance (or reload the nvidia kernel modules)</source>
        <translation>驱动升级后未重启：请重启实例（或重新加载 nvidia 内核模块）</translation>
    </message>
    <message>
        <source>check `dmesg | grep -i nvrm` for Xid errors; if the GPU fell off the bus, ask the provider for another machine</source>
        <translation>请用 `dmesg | grep -i nvrm` 检查是否有 Xid 错误；如果 GPU 已从总线上掉线（掉卡），请让云服务商更换机器</translation>
    </message>
    <message>
        <source>PyTorch %1 cannot use the GPU (torch.cuda.is_available() is False; built for CUDA %2, driver supports CUDA %3)</source>
        <translation>PyTorch %1 无法使用 GPU（torch.cuda.is_available() 为 False；基于 CUDA %2 构建，驱动支持 CUDA %3）</translation>
    </message>
    <message>
        <source>none (CPU-only build)</source>
        <translation>无（仅 CPU 版本）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>install a CUDA build of PyTorch no newer than the driver&apos;s CUDA, e.g. pip install torch --index-url https://download.pytorch.org/whl/cu121</source>
        <translation>请安装 CUDA 版本不高于驱动所支持 CUDA 版本的 PyTorch，例如 pip install torch --index-url https://download.pytorch.org/whl/cu121</translation>
    </message>
    <message>
        <source>disk nearly full: %1 GiB free on %2</source>
        <translation>磁盘即将写满：%2 上剩余 %1 GiB</translation>
    </message>
    <message>
        <source>delete old checkpoints or caches (~/.cache/pip, ~/.cache/huggingface), or attach a larger volume</source>
        <translation>请删除旧的检查点或缓存（~/.cache/pip、~/.cache/huggingface），或挂载更大的数据盘</translation>
    </message>
    <message>
        <source>nvidia-smi lists no GPU</source>
        <translation>nvidia-smi 未列出任何 GPU</translation>
    </message>
    <message>
        <source>the facts script did not complete on %1 (is the login shell POSIX-compatible?)</source>
        <translation>信息采集脚本未能在 %1 上执行完成（登录 shell 是否兼容 POSIX？）</translation>
    </message>
    <message>
        <source>use an image with the NVIDIA driver (Lambda Stack, a RunPod PyTorch template, an AutoDL CUDA image), or install it: sudo apt install nvidia-driver-%1 (then reboot)</source>
        <translation>请使用带 NVIDIA 驱动的镜像（Lambda Stack、RunPod PyTorch 模板、AutoDL CUDA 镜像），或手动安装：sudo apt install nvidia-driver-%1（然后重启）</translation>
    </message>
</context>
<context>
    <name>gantry::HostStore</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>a saved host needs a name</source>
        <translation>已保存的主机需要名称</translation>
    </message>
    <message>
        <source>host &quot;%1&quot; needs an address</source>
        <translation>主机“%1”需要地址</translation>
    </message>
    <message>
        <source>a host named &quot;%1&quot; exists already; pick another name or remove it first</source>
        <translation>已存在名为“%1”的主机；请换个名称，或先将其删除</translation>
    </message>
    <message>
        <source>no saved host named &quot;%1&quot;</source>
        <translation>没有名为“%1”的已保存主机</translation>
    </message>
    <message>
        <source>no saved host named &quot;%1&quot; (see: gantry-cli hosts list)</source>
        <translation>没有名为“%1”的已保存主机（参见：gantry-cli hosts list）</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>host name &quot;%1&quot; may not contain &apos;@&apos;, &apos;:&apos;, &apos;/&apos;, quotes or control characters; choose another name</source>
        <translation>主机名“%1”不能包含“@”、“:”、“/”、引号或控制字符；请换一个名称</translation>
    </message>
    <message>
        <source>host &quot;%1&quot; was not saved: %2</source>
        <translation>主机“%1”未保存：%2</translation>
    </message>
    <message>
        <source>%1 is damaged (%2 at byte %3). Gantry starts with no saved hosts and, when it next saves one, keeps the damaged file as %1.damaged-DATE; fix that copy and move it back to restore the hosts</source>
        <translation>%1 已损坏（第 %3 字节处：%2）。Gantry 将以空的已保存主机列表启动，并在下次保存主机时把损坏的文件保留为 %1.damaged-日期；修复该副本并移回原处即可恢复这些主机</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a currency code; use three letters such as USD, CNY or EUR</source>
        <translation>“%1”不是货币代码；请使用三个字母，如 USD、CNY 或 EUR</translation>
    </message>
    <message>
        <source>host name &quot;%1&quot; is a folder&apos;s own name; choose another name</source>
        <translation>主机名“%1”是文件夹自身的名称；请另选一个名称</translation>
    </message>
    <message>
        <source>%1 is being changed by another Gantry (lock %2); try again in a moment</source>
        <translation>%1 正由另一个 Gantry 修改（锁文件 %2）；请稍后再试</translation>
    </message>
</context>
<context>
    <name>gantry::SshConfigImport</name>
    <message>
        <source>%1 is included more than once (an Include loop?); it was read once. Remove the repeated Include line.</source>
        <translation>%1 被包含了多次（Include 循环？）；只读取了一次。请删除重复的 Include 行。</translation>
    </message>
    <message>
        <source>%1 is nested deeper than %2 Include levels and was skipped; flatten the Includes.</source>
        <translation>%1 的嵌套深度超过 %2 层 Include，已跳过；请减少 Include 嵌套。</translation>
    </message>
    <message>
        <source>%1 was skipped: more than %2 files are included; include fewer files.</source>
        <translation>已跳过 %1：包含的文件超过 %2 个；请减少包含的文件。</translation>
    </message>
    <message>
        <source>Host %1 was not imported: %2.</source>
        <translation>未导入主机 %1：%2。</translation>
    </message>
</context>
<context>
    <name>gantry::app::AppServices</name>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message numerus="yes">
        <source>Uploading %n item(s) to %1…</source>
        <translation>
            <numerusform>正在将 %n 个项目上传到 %1…</numerusform>
        </translation>
    </message>
    <message>
        <source>Job finished on %1</source>
        <translation>%1 上的任务已结束</translation>
    </message>
    <message>
        <source>%1 ended (%2).
%3</source>
        <translation>%1 已结束（%2）。
%3</translation>
    </message>
    <message>
        <source>Gantry: %1</source>
        <translation>Gantry: %1</translation>
    </message>
    <message>
        <source>Transfers are still running or queued; they resume next time.</source>
        <translation>仍有传输正在进行或排队中；下次启动时将继续。</translation>
    </message>
    <message>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Transfers</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>Fleet monitor</source>
        <translation>机群监控</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Instance ready</source>
        <translation>实例已就绪</translation>
    </message>
    <message>
        <source>%1 is up; connecting.</source>
        <translation>%1 已启动，正在连接。</translation>
    </message>
    <message>
        <source>%1 is up and connected.</source>
        <translation>%1 已启动并已连接。</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>%1 is not in the Instances list yet; it is being refreshed. Choose the command again once it shows.</source>
        <translation>%1 还不在实例列表中；列表正在刷新。待它出现后请再次选择该命令。</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Managed runs go on without the window: gantry-cli watch takes over %1.</source>
        <translation>托管运行在窗口关闭后继续：gantry-cli watch 将接管 %1。</translation>
    </message>
    <message>
        <source>The acceptance test runs on its Verify tab.</source>
        <translation>验收测试正在其“验证”标签页上运行。</translation>
    </message>
    <message>
        <source>Keep it or give it back: the acceptance test is on its Verify tab.</source>
        <translation>留下还是退掉：验收测试在其“验证”标签页上。</translation>
    </message>
    <message>
        <source>Idle GPU on %1</source>
        <translation>%1 上的 GPU 处于空闲</translation>
    </message>
    <message>
        <source>The idle policy is run by %1; this window leaves the action to it.</source>
        <translation>空闲策略由 %1 执行；本窗口不再自行操作，交由它处理。</translation>
    </message>
    <message>
        <source>Copies through a bucket or between machines are still running; they stop. Run them again to go on: files already copied are skipped.</source>
        <translation>经由存储桶或机器之间的复制仍在进行，关闭后会停止。再次运行即可继续：已复制的文件会被跳过。</translation>
    </message>
</context>
<context>
    <name>gantry::app::ResultsGuard</name>
    <message>
        <source>Transfers pending</source>
        <translation>有未完成的传输</translation>
    </message>
    <message>
        <source>Results still downloading</source>
        <translation>结果仍在下载中</translation>
    </message>
    <message>
        <source>Results not home</source>
        <translation>结果尚未下载到本地</translation>
    </message>
    <message>
        <source>Terminate anyway?</source>
        <translation>仍要释放吗？</translation>
    </message>
    <message>
        <source>Bring results home first?</source>
        <translation>先将结果下载到本地？</translation>
    </message>
    <message>
        <source>%1 has result paths (%2). Download them to %3 before terminating?</source>
        <translation>%1 有结果路径（%2）。释放前先将其下载到 %3 吗？</translation>
    </message>
    <message>
        <source>Download first</source>
        <translation>先下载</translation>
    </message>
    <message>
        <source>Terminate without</source>
        <translation>直接释放</translation>
    </message>
</context>
<context>
    <name>gantry::app::ShellWiring</name>
    <message>
        <source>The local sandbox is not available in this build.</source>
        <translation>此版本中没有本地沙盒。</translation>
    </message>
    <message>
        <source>Starting the local sandbox…</source>
        <translation>正在启动本地沙盒…</translation>
    </message>
    <message>
        <source>The local sandbox offers no instance type.</source>
        <translation>本地沙盒没有可用的实例类型。</translation>
    </message>
    <message>
        <source>The sandbox is booting; it opens here when it is up.</source>
        <translation>沙盒正在启动；就绪后会在这里打开。</translation>
    </message>
    <message>
        <source>Only the local sandbox is listed: add a Lambda or RunPod key to see their prices.</source>
        <translation>目前只列出本地沙盒：添加 Lambda 或 RunPod 的密钥即可查看它们的价格。</translation>
    </message>
    <message>
        <source>Add an account…</source>
        <translation>添加账户…</translation>
    </message>
    <message>
        <source>Gantry: %1/h running now</source>
        <translation>Gantry：当前运行中 %1/h</translation>
    </message>
    <message>
        <source>Capacity available</source>
        <translation>有可用容量</translation>
    </message>
</context>
<context>
    <name>gantry::appsettings</name>
    <message>
        <source>%1 must be one of: %2.</source>
        <translation>%1 必须是以下之一：%2。</translation>
    </message>
    <message>
        <source>%1 must be a whole number of 0 or more.</source>
        <translation>%1 必须是大于或等于 0 的整数。</translation>
    </message>
    <message>
        <source>%1 must be an http(s) URL such as https://api.example.com/v1.</source>
        <translation>%1 必须是 http(s) URL，例如 https://api.example.com/v1。</translation>
    </message>
    <message>
        <source>Cannot save %1 in %2; check that the folder is writable.</source>
        <translation>无法将 %1 保存到 %2；请检查该文件夹是否可写。</translation>
    </message>
</context>
<context>
    <name>gantry::cluster</name>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>An all-reduce with the head alone works.</source>
        <translation>仅与头节点进行 all-reduce 可以成功。</translation>
    </message>
    <message>
        <source>An all-reduce between this node and the head fails: this node breaks the collective.</source>
        <translation>此节点与头节点之间的 all-reduce 失败：是此节点导致集合通信失败。</translation>
    </message>
    <message>
        <source>Replace the node, or compare its network settings with the others (NCCL_DEBUG=INFO).</source>
        <translation>请更换该节点，或将其网络设置与其他节点对比（NCCL_DEBUG=INFO）。</translation>
    </message>
    <message>
        <source>it summed to %1 instead of %2</source>
        <translation>求和结果为 %1，而非 %2</translation>
    </message>
    <message numerus="yes">
        <source>The all-reduce across %n node(s) failed here: %1</source>
        <translation>
            <numerusform>跨 %n 个节点的 all-reduce 在此失败：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Rerun with NCCL_DEBUG=INFO; set NCCL_SOCKET_IFNAME to the interface suggested above.</source>
        <translation>请使用 NCCL_DEBUG=INFO 重新运行，并将 NCCL_SOCKET_IFNAME 设为上面建议的网卡。</translation>
    </message>
    <message>
        <source>All-reduce of %1 MiB over %2: bus bandwidth %3 GB/s.</source>
        <translation>通过 %2 对 %1 MiB 执行 all-reduce：总线带宽 %3 GB/s。</translation>
    </message>
    <message>
        <source>%1 is %2 here but %3 on the head (rank 0).</source>
        <translation>%1 在此为 %2，但在头节点（rank 0）上为 %3。</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
    <message>
        <source>The GPU set</source>
        <translation>GPU 配置</translation>
    </message>
    <message>
        <source>Launch every node with the same instance type: mixed GPUs make the fast ones wait and break --nproc_per_node.</source>
        <translation>请用相同的实例类型创建所有节点：混用 GPU 会让快的节点等待慢的节点，并使 --nproc_per_node 失效。</translation>
    </message>
    <message>
        <source>The NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>Use the same image on every node; NCCL across driver versions usually works but is untested.</source>
        <translation>请在所有节点上使用相同的镜像；跨驱动版本的 NCCL 通常可用，但未经测试。</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>Use the same image on every node.</source>
        <translation>请在所有节点上使用相同的镜像。</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Install the same Python on every node (pickled objects cross nodes).</source>
        <translation>请在所有节点上安装相同版本的 Python（pickle 序列化的对象会在节点之间传递）。</translation>
    </message>
    <message>
        <source>PyTorch does not import with %1.</source>
        <translation>无法用 %1 导入 PyTorch。</translation>
    </message>
    <message>
        <source>Install it (pip install torch, or apt install python3-torch on Debian) or activate its environment.</source>
        <translation>请安装它（pip install torch，或在 Debian 上 apt install python3-torch），或激活其所在环境。</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>Install the same torch version everywhere: c10d&apos;s wire format changes between releases.</source>
        <translation>请在所有节点上安装相同版本的 torch：c10d 的通信格式在不同版本间会变化。</translation>
    </message>
    <message>
        <source>No interface reaches %1 by its subnet (ip -o addr).</source>
        <translation>没有网卡的子网包含 %1（ip -o addr）。</translation>
    </message>
    <message>
        <source>Set NCCL_SOCKET_IFNAME to the interface of the private network.</source>
        <translation>请将 NCCL_SOCKET_IFNAME 设为内网所用的网卡。</translation>
    </message>
    <message>
        <source>NCCL sockets should use %1.</source>
        <translation>NCCL 套接字应使用 %1。</translation>
    </message>
    <message>
        <source>EFA: %1.</source>
        <translation>EFA：%1。</translation>
    </message>
    <message>
        <source>InfiniBand/RoCE active: %1.</source>
        <translation>InfiniBand/RoCE 已激活：%1。</translation>
    </message>
    <message>
        <source>NCCL needs the aws-ofi-nccl plugin to use EFA (FI_PROVIDER=efa).</source>
        <translation>NCCL 需要 aws-ofi-nccl 插件才能使用 EFA（FI_PROVIDER=efa）。</translation>
    </message>
    <message>
        <source>InfiniBand devices are not active: %1.</source>
        <translation>InfiniBand 设备未激活：%1。</translation>
    </message>
    <message>
        <source>NCCL falls back to TCP; ask the provider why the fabric port is down (ibstat).</source>
        <translation>NCCL 将退回使用 TCP；请询问云服务商为何网络端口处于断开状态（ibstat）。</translation>
    </message>
    <message>
        <source>No InfiniBand or EFA: NCCL uses TCP sockets between nodes.</source>
        <translation>没有 InfiniBand 或 EFA：NCCL 在节点之间使用 TCP 套接字。</translation>
    </message>
    <message>
        <source>All %1 GPU pairs are linked by NVLink.</source>
        <translation>全部 %1 对 GPU 均通过 NVLink 互连。</translation>
    </message>
    <message>
        <source>%1 of %2 GPU pairs talk over PCIe (slowest path: %3): NCCL inside the node is slower than over NVLink.</source>
        <translation>%2 对 GPU 中有 %1 对通过 PCIe 通信（最慢路径：%3）：节点内的 NCCL 通信比 NVLink 慢。</translation>
    </message>
    <message>
        <source>Expected on PCIe cards; for tensor parallelism pick an SXM type with NVLink.</source>
        <translation>PCIe 卡属正常情况；如需张量并行，请选择带 NVLink 的 SXM 机型。</translation>
    </message>
    <message>
        <source>%1 of %2 NICs share a PCIe switch with a GPU (GPUDirect RDMA).</source>
        <translation>%2 块网卡中有 %1 块与 GPU 共用 PCIe 交换机（可用 GPUDirect RDMA）。</translation>
    </message>
    <message>
        <source>Traffic through the other NICs crosses the CPU; NCCL_IB_HCA can pin the near ones.</source>
        <translation>经其余网卡的流量需绕经 CPU；可用 NCCL_IB_HCA 指定靠近 GPU 的网卡。</translation>
    </message>
    <message>
        <source>Reachable by SSH.</source>
        <translation>可通过 SSH 访问。</translation>
    </message>
    <message>
        <source>Network steps not run: rank %1 is unreachable.</source>
        <translation>未执行网络检查：rank %1 无法访问。</translation>
    </message>
    <message>
        <source>Bring that node back (or remove it from the cluster), then check again.</source>
        <translation>请恢复该节点（或将其移出集群），然后重新检查。</translation>
    </message>
    <message>
        <source>rank %1: no saved host &quot;%2&quot; (is the node still booting?)</source>
        <translation>rank %1：没有已保存的主机“%2”（该节点是否仍在启动？）</translation>
    </message>
    <message>
        <source>rank %1 (%2): %3</source>
        <translation>rank %1（%2）：%3</translation>
    </message>
    <message>
        <source>Port %1 is already taken on the head (%2): torchrun&apos;s rendezvous could not listen there.</source>
        <translation>头节点上的端口 %1 已被占用（%2）：torchrun 的 rendezvous 无法在此监听。</translation>
    </message>
    <message>
        <source>Could not start a test listener on the head: %1</source>
        <translation>无法在头节点上启动测试监听：%1</translation>
    </message>
    <message>
        <source>Pick a free port with --master-port, or stop what holds it (ss -ltnp &apos;sport = :%1&apos;).</source>
        <translation>请用 --master-port 选择空闲端口，或停止占用该端口的程序（ss -ltnp &apos;sport = :%1&apos;）。</translation>
    </message>
    <message>
        <source>Install python3 on the head.</source>
        <translation>请在头节点上安装 python3。</translation>
    </message>
    <message>
        <source>Not tested: the head could not listen on %1.</source>
        <translation>未测试：头节点无法在 %1 上监听。</translation>
    </message>
    <message>
        <source>Fix the head first, then check again.</source>
        <translation>请先修复头节点，然后重新检查。</translation>
    </message>
    <message>
        <source>Reaches the head at %1.</source>
        <translation>可以访问头节点 %1。</translation>
    </message>
    <message>
        <source>Cannot reach the head at %1 (%2).</source>
        <translation>无法访问头节点 %1（%2）。</translation>
    </message>
    <message>
        <source>Open TCP port %1 between the nodes (security group, firewall), and keep every node in one region.</source>
        <translation>请在节点之间开放 TCP 端口 %1（安全组、防火墙），并让所有节点位于同一区域。</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>rank %1：%2</translation>
    </message>
    <message>
        <source>rank %1  %2 (%3:%4)
    %5 %6</source>
        <translation>rank %1  %2（%3:%4）
    %5 %6</translation>
    </message>
    <message numerus="yes">
        <source>This is the first connection to %n node(s) of the cluster. Compare these host key fingerprints with the ones your provider shows (console or boot log):

%1

Trust them all and check the cluster? They will be recorded in %2.</source>
        <translation>
            <numerusform>这是第一次连接该集群的 %n 个节点。请将以下主机密钥指纹与云服务商显示的指纹（控制台或启动日志）核对：

%1

全部信任并检查集群吗？它们将记录在 %2 中。</numerusform>
        </translation>
    </message>
    <message>
        <source>Start the machine, or fix its saved host in Machines (gantry-cli hosts list).</source>
        <translation>请启动该机器，或在“机器”中修正其已保存的主机信息（gantry-cli hosts list）。</translation>
    </message>
</context>
<context>
    <name>gantry::cluster::ClusterLauncher</name>
    <message>
        <source>cannot launch on &quot;%1&quot;: that provider is not configured (gantry-cli providers)</source>
        <translation>无法在“%1”上创建：该云服务商尚未配置（gantry-cli providers）</translation>
    </message>
    <message numerus="yes">
        <source>Launching %n node(s) of %1 in %2…</source>
        <translation>
            <numerusform>正在 %2 创建 %n 个 %1 节点…</numerusform>
        </translation>
    </message>
    <message>
        <source>node %1: %2</source>
        <translation>节点 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Waiting for %n node(s) to boot…</source>
        <translation>
            <numerusform>正在等待 %n 个节点启动…</numerusform>
        </translation>
    </message>
    <message>
        <source>node %1 (%2): %3</source>
        <translation>节点 %1（%2）：%3</translation>
    </message>
    <message>
        <source>cluster %1: never became active</source>
        <translation>集群 %1：节点始终未进入运行状态</translation>
    </message>
    <message numerus="yes">
        <source>Only some nodes came up: terminating the %n that did, so they do not bill for nothing…</source>
        <translation>
            <numerusform>只有部分节点启动成功：正在释放已启动的 %n 个节点，以免白白计费…</numerusform>
        </translation>
    </message>
    <message>
        <source>cluster %1: partial launch</source>
        <translation>集群 %1：部分创建</translation>
    </message>
    <message>
        <source>could not terminate %1: %2 — terminate it yourself in Instances (gantry-cli terminate %1 --yes)</source>
        <translation>无法释放 %1：%2 — 请在“实例”中自行释放（gantry-cli terminate %1 --yes）</translation>
    </message>
</context>
<context>
    <name>gantry::cluster::ClusterLifecycle</name>
    <message>
        <source>No cluster named &quot;%1&quot; (gantry-cli cluster list).</source>
        <translation>没有名为“%1”的集群（gantry-cli cluster list）。</translation>
    </message>
    <message>
        <source>rank %1 (%2) is a saved host, not a rented instance: left as it is.</source>
        <translation>rank %1（%2）是已保存的主机，不是租用的实例：保持原样。</translation>
    </message>
    <message>
        <source>cluster %1 rank %2</source>
        <translation>集群 %1 rank %2</translation>
    </message>
    <message>
        <source>rank %1 (%2): %3</source>
        <translation>rank %1（%2）：%3</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>rank %1：%2</translation>
    </message>
</context>
<context>
    <name>gantry::cluster::ClusterStore</name>
    <message>
        <source>&quot;%1&quot; is not a cluster name: use up to 40 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit</source>
        <translation>“%1”不是有效的集群名称：最多 40 个字母、数字、&apos;.&apos;、&apos;_&apos; 或 &apos;-&apos;，且须以字母或数字开头</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not valid JSON (%2): fix or remove the file</source>
        <translation>%1 不是有效的 JSON（%2）：请修正或删除该文件</translation>
    </message>
    <message>
        <source>no cluster named &quot;%1&quot; (gantry-cli cluster list)</source>
        <translation>没有名为“%1”的集群（gantry-cli cluster list）</translation>
    </message>
    <message>
        <source>%1 was written by a newer Gantry: it is left as it is; update Gantry to change clusters</source>
        <translation>%1 由更新版本的 Gantry 写入：将保持原样；请更新 Gantry 后再修改集群</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>a cluster named &quot;%1&quot; exists already: pick another name or remove that cluster first</source>
        <translation>已有名为“%1”的集群：请换一个名称，或先删除那个集群</translation>
    </message>
    <message>
        <source>a cluster needs at least one saved host</source>
        <translation>集群至少需要一台已保存的主机</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a saved host</source>
        <translation>“%1”不是已保存的主机</translation>
    </message>
</context>
<context>
    <name>gantry::cost</name>
    <message>
        <source>%1 (%2) is stopped, but its disk still bills storage until you terminate it.</source>
        <translation>%1（%2）已关机，但在释放前，其磁盘仍会收取存储费用。</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 GB used</source>
        <translation>已用 %1 GB</translation>
    </message>
    <message>
        <source>its data</source>
        <translation>其数据</translation>
    </message>
    <message>
        <source>Volume %1 on %2 (%3) bills storage whether or not an instance uses it.</source>
        <translation>%2 上的数据盘 %1（%3）无论是否被实例使用，都会收取存储费用。</translation>
    </message>
    <message>
        <source> — about $%1 so far, $%2 a day</source>
        <translation>，至今约 $%1，每天 $%2</translation>
    </message>
    <message>
        <source>a day</source>
        <translation>一天</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>Reminder: %1 (%2) has been stopped for %3 and its disk keeps billing%4. Terminate it if you no longer need its data.</source>
        <translation>提醒：%1（%2）已关机 %3，其磁盘仍在计费%4。如果不再需要其中的数据，请释放它。</translation>
    </message>
    <message>
        <source>%1 has no hourly price, so there is nothing to bill; give it one first (gantry-cli hosts price %1 PER_HOUR --currency CNY).</source>
        <translation>%1 没有设置每小时价格，因此无从计费；请先设置价格（gantry-cli hosts price %1 每小时价格 --currency CNY）。</translation>
    </message>
    <message>
        <source>%1 is a %2 instance: the ledger bills it through %2 already.</source>
        <translation>%1 是 %2 的实例：账本已通过 %2 为其计费。</translation>
    </message>
    <message>
        <source>price changed</source>
        <translation>价格已变更</translation>
    </message>
    <message>
        <source>host removed or no longer priced</source>
        <translation>主机已移除或不再设置价格</translation>
    </message>
    <message>
        <source>%1 (%2) is stopped, but %3 still bills storage until you terminate it.</source>
        <translation>%1（%2）已停止，但%3在终止前仍按存储计费。</translation>
    </message>
    <message>
        <source>%1 has no billing to resume; start it in Cost → Resume billing, or with: gantry-cli hosts billing %1 on</source>
        <translation>%1 没有可恢复的计费；请在“费用 → 恢复计费”中开始计费，或使用命令：gantry-cli hosts billing %1 on</translation>
    </message>
</context>
<context>
    <name>gantry::cost::BudgetMonitor</name>
    <message>
        <source>You have spent %1 of your %2 budget of %3. Stop or terminate instances to stop the bill growing.</source>
        <translation>已花费 %1，%2预算为 %3。请将实例关机或释放，以免费用继续增长。</translation>
    </message>
    <message>
        <source>%1 % of your %2 budget used (%3 of %4).</source>
        <translation>%2预算已使用 %1 %（%3 / %4）。</translation>
    </message>
    <message>
        <source>%1 (%2) %3/h</source>
        <translation>%1（%2）%3/小时</translation>
    </message>
    <message>
        <source>%1 (%2, stopped disk) %3/h</source>
        <translation>%1（%2，已停止实例的磁盘）%3/小时</translation>
    </message>
    <message numerus="yes">
        <source>%n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Billing now: %1.</source>
        <translation>正在计费：%1。</translation>
    </message>
</context>
<context>
    <name>gantry::cost::Ledger</name>
    <message>
        <source>Cannot open the cost ledger %1: %2</source>
        <translation>无法打开费用账单记录 %1：%2</translation>
    </message>
    <message>
        <source>Cost ledger error: %1</source>
        <translation>费用账单记录错误：%1</translation>
    </message>
    <message>
        <source>The cost ledger has no instance %1 on %2.</source>
        <translation>费用账单记录中没有 %2 上的实例 %1。</translation>
    </message>
    <message>
        <source>terminated outside Gantry</source>
        <translation>已在 Gantry 之外释放</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>A budget period is &quot;daily&quot; or &quot;monthly&quot;.</source>
        <translation>预算周期只能是“daily”或“monthly”。</translation>
    </message>
    <message>
        <source>Cannot read the cost ledger %1: %2</source>
        <translation>无法读取费用账本 %1：%2</translation>
    </message>
    <message>
        <source>Cannot update the cost ledger %1: %2</source>
        <translation>无法更新费用账本 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write the cost ledger %1: %2</source>
        <translation>无法写入费用账本 %1：%2</translation>
    </message>
</context>
<context>
    <name>gantry::diagnostics</name>
    <message>
        <source>Cannot write the diagnostic report to %1 (%2); choose another folder.</source>
        <translation>无法将诊断报告写入 %1（%2）；请选择其他文件夹。</translation>
    </message>
</context>
<context>
    <name>gantry::guard</name>
    <message>
        <source>%1 failed on the machine (exit %2): %3. Check that it has a POSIX sh and that its home directory is writable.</source>
        <translation>%1 在该机器上失败（退出码 %2）：%3。请检查它是否有 POSIX sh，以及主目录是否可写。</translation>
    </message>
    <message>
        <source>This host was not launched through a provider, so Gantry does not know how it could stop itself. Use `gantry-cli watch` on a machine that stays awake instead.</source>
        <translation>此主机不是通过云服务商启动的，Gantry 不知道它如何自行停机。请改在一台保持唤醒的机器上运行 `gantry-cli watch`。</translation>
    </message>
    <message>
        <source>%1 gives a machine no credentials that can stop only itself, and powering off does not stop its billing. Use `gantry-cli watch` on a machine that stays awake instead.</source>
        <translation>%1 不为机器提供仅能停止其自身的凭据，且关机不会停止计费。请改在一台保持唤醒的机器上运行 `gantry-cli watch`。</translation>
    </message>
    <message>
        <source>There is no way for this machine to stop itself; use `gantry-cli watch` instead.</source>
        <translation>这台机器无法自行停机；请改用 `gantry-cli watch`。</translation>
    </message>
    <message>
        <source>Installing the idle guard</source>
        <translation>安装空闲守护</translation>
    </message>
    <message>
        <source>Reading the idle guard&apos;s status</source>
        <translation>读取空闲守护的状态</translation>
    </message>
    <message>
        <source>Removing the idle guard</source>
        <translation>移除空闲守护</translation>
    </message>
    <message>
        <source>The idle threshold must be at least one minute.</source>
        <translation>空闲阈值至少为一分钟。</translation>
    </message>
    <message>
        <source>This machine can only power itself off, which stops it; choose stop, or terminate it from Gantry.</source>
        <translation>这台机器只能自行关机，也就是停止；请选择“停止”，或在 Gantry 中终止它。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2. Check that the folder is writable.</source>
        <translation>无法写入 %1：%2。请检查该文件夹是否可写。</translation>
    </message>
    <message>
        <source>Not connected to the machine; connect and try again.</source>
        <translation>未连接到该机器；请连接后重试。</translation>
    </message>
</context>
<context>
    <name>gantry::handoff</name>
    <message>
        <source>Cannot create a private folder in %1: %2.</source>
        <translation>无法在 %1 中创建私有文件夹：%2。</translation>
    </message>
    <message>
        <source>Could not start the editor %1: %2. Set $VISUAL or $EDITOR to an editor that is installed.</source>
        <translation>无法启动编辑器 %1：%2。请将 $VISUAL 或 $EDITOR 设为已安装的编辑器。</translation>
    </message>
    <message>
        <source>No editor found: set $VISUAL or $EDITOR (nano, vi and editor are not installed either).</source>
        <translation>未找到编辑器：请设置 $VISUAL 或 $EDITOR（nano、vi 和 editor 也都未安装）。</translation>
    </message>
    <message>
        <source>the default application</source>
        <translation>默认应用程序</translation>
    </message>
    <message>
        <source>No application opens %1: set $VISUAL or $EDITOR, or choose a default application for text files.</source>
        <translation>没有应用程序能打开 %1：请设置 $VISUAL 或 $EDITOR，或为文本文件选择默认应用程序。</translation>
    </message>
    <message>
        <source>The editor returned at once (it opened %1 in a window that was already open). Each save is uploaded until you end the edit.</source>
        <translation>编辑器立即返回了（它在已打开的窗口中打开了 %1）。在您结束编辑之前，每次保存都会上传。</translation>
    </message>
    <message>
        <source>The editor ended with status %1.</source>
        <translation>编辑器以状态 %1 结束。</translation>
    </message>
    <message>
        <source>Not uploaded: %1 changed on %2; your copy is kept in %3.</source>
        <translation>未上传：%2 上的 %1 已更改；您的副本保存在 %3。</translation>
    </message>
    <message>
        <source>%1 Your edit was not uploaded, so nothing of theirs was overwritten; it is kept in %2. Open the file again to see their version, then copy your change into it.</source>
        <translation>%1 您的修改没有上传，因此对方的内容未被覆盖；您的修改保存在 %2。请重新打开该文件查看对方的版本，再把您的修改复制进去。</translation>
    </message>
    <message>
        <source>Uploading %1 failed: %2 Save again to retry; the local copy is kept in %3.</source>
        <translation>上传 %1 失败：%2 请再次保存以重试；本地副本保存在 %3。</translation>
    </message>
    <message>
        <source>Could not edit %1 on %2.</source>
        <translation>无法编辑 %2 上的 %1。</translation>
    </message>
    <message>
        <source>Stopped editing %1 on %2; the last changes were not uploaded and are kept in %3.</source>
        <translation>已停止编辑 %2 上的 %1；最后的修改没有上传，保存在 %3。</translation>
    </message>
    <message numerus="yes">
        <source>Finished editing %1 on %2: %n save(s) uploaded.</source>
        <translation>
            <numerusform>已完成编辑 %2 上的 %1：已上传 %n 次保存。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on %2: changed on the machine; your edit is not uploaded</source>
        <translation>%2 上的 %1：机器上的文件已更改；您的修改未上传</translation>
    </message>
    <message>
        <source>%1 on %2: downloading…</source>
        <translation>%2 上的 %1：正在下载…</translation>
    </message>
    <message>
        <source>%1 on %2: uploading…</source>
        <translation>%2 上的 %1：正在上传…</translation>
    </message>
    <message>
        <source>%1 on %2: done</source>
        <translation>%2 上的 %1：已完成</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2: editing, %n save(s) uploaded</source>
        <translation>
            <numerusform>%2 上的 %1：正在编辑，已上传 %n 次保存</numerusform>
        </translation>
    </message>
    <message>
        <source>a terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>The machine has no ssh name.</source>
        <translation>这台机器没有 ssh 名称。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot be an ssh host name: it contains a space or a control character.</source>
        <translation>“%1”不能用作 ssh 主机名：其中含有空格或控制字符。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot be an ssh host name: it starts with &apos;-&apos;.</source>
        <translation>“%1”不能用作 ssh 主机名：它以“-”开头。</translation>
    </message>
    <message>
        <source>The path &quot;%1&quot; contains a control character.</source>
        <translation>路径“%1”含有控制字符。</translation>
    </message>
    <message>
        <source>The path &quot;%1&quot; is not absolute; give the full path, starting with &apos;/&apos;.</source>
        <translation>路径“%1”不是绝对路径；请给出以“/”开头的完整路径。</translation>
    </message>
    <message>
        <source>No terminal program was found ($TERMINAL, x-terminal-emulator, gnome-terminal, konsole, xfce4-terminal, alacritty, kitty, xterm…). Run this in a terminal instead: %1</source>
        <translation>未找到终端程序（$TERMINAL、x-terminal-emulator、gnome-terminal、konsole、xfce4-terminal、alacritty、kitty、xterm…）。请改为在终端中运行：%1</translation>
    </message>
    <message>
        <source>%1 (%2) is not on PATH. Install it with its Remote - SSH support, or run this where it is installed: %3</source>
        <translation>PATH 中没有 %1（%2）。请安装它及其 Remote - SSH 支持，或在已安装它的地方运行：%3</translation>
    </message>
    <message>
        <source>Could not start %1. Run this instead: %2</source>
        <translation>无法启动 %1。请改为运行：%2</translation>
    </message>
    <message>
        <source>%1 reaches %2 only by its name in ~/.ssh/config, and it has none there yet. Let Gantry keep entries for its machines in ~/.ssh/config, then open it again.</source>
        <translation>%1 只能通过 ~/.ssh/config 中的名称连接 %2，而那里还没有它的条目。请让 Gantry 在 ~/.ssh/config 中维护其机器的条目，然后再次打开。</translation>
    </message>
</context>
<context>
    <name>gantry::jobs</name>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>exited %1</source>
        <translation>已退出 %1</translation>
    </message>
    <message>
        <source>killed (SIG%1)</source>
        <translation>已被终止（SIG%1）</translation>
    </message>
    <message>
        <source>killed</source>
        <translation>已被终止</translation>
    </message>
    <message>
        <source>bash is not installed on %1; jobs need it (install it with the package manager).</source>
        <translation>%1 上未安装 bash，而任务需要它（请用包管理器安装）。</translation>
    </message>
    <message>
        <source>There is no job named &quot;%1&quot; on %2 (see `gantry-cli job list`).</source>
        <translation>%2 上没有名为“%1”的任务（参见 `gantry-cli job list`）。</translation>
    </message>
    <message>
        <source>%1 is not installed on %2: install it (e.g. apt-get install %1) or let Gantry choose tmux, screen or nohup.</source>
        <translation>%2 上未安装 %1：请安装它（例如 apt-get install %1），或让 Gantry 自动选择 tmux、screen 或 nohup。</translation>
    </message>
    <message>
        <source>Cannot start the job on %1: %2.</source>
        <translation>无法在 %1 上启动任务：%2。</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>The job command failed on %1: %2</source>
        <translation>任务命令在 %1 上执行失败：%2</translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; is still running on %2; stop it before running it again.</source>
        <translation>任务“%1”仍在 %2 上运行；请先停止它，再重新运行。</translation>
    </message>
    <message>
        <source>A job named &quot;%1&quot; already exists on %2 (%3). Pick another name, rerun it, or remove it first.</source>
        <translation>%2 上已存在名为“%1”的任务（%3）。请换个名称、重新运行该任务，或先将其删除。</translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; started but its state could not be read.</source>
        <translation>任务“%1”已启动，但无法读取其状态。</translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; has not started yet; try again in a moment.</source>
        <translation>任务“%1”尚未启动，请稍后重试。</translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; on %2 is still running after SIGKILL; a process may be stuck in the kernel (check `ps` on the instance).</source>
        <translation>%2 上的任务“%1”在 SIGKILL 后仍在运行；可能有进程卡在内核中（请在实例上用 `ps` 检查）。</translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; is still running on %2; stop it before removing it.</source>
        <translation>任务“%1”仍在 %2 上运行；请先停止它，再删除。</translation>
    </message>
    <message>
        <source>Following the log of &quot;%1&quot; stopped at byte %2: %3 Reconnect to resume from there.</source>
        <translation>跟踪“%1”的日志在第 %2 字节处中断：%3 重新连接即可从该处继续。</translation>
    </message>
    <message>
        <source>The job name is empty; give a name such as &quot;train&quot;.</source>
        <translation>任务名称为空；请指定一个名称，例如“train”。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid job name: use up to 64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit.</source>
        <translation>“%1”不是有效的任务名称：最多 64 个字母、数字、&apos;.&apos;、&apos;_&apos; 或 &apos;-&apos;，且须以字母或数字开头。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an environment assignment: write KEY=VALUE, e.g. CUDA_VISIBLE_DEVICES=0.</source>
        <translation>“%1”不是环境变量赋值：请写成 KEY=VALUE，例如 CUDA_VISIBLE_DEVICES=0。</translation>
    </message>
    <message>
        <source>No command to run: give the command line of the job.</source>
        <translation>没有要运行的命令：请提供任务的命令行。</translation>
    </message>
    <message>
        <source>Choose either a virtualenv or a conda environment, not both.</source>
        <translation>请在 virtualenv 和 conda 环境中选择其一，不能同时使用。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>The results folder %1 does not exist on %2.</source>
        <translation>%2 上不存在结果文件夹 %1。</translation>
    </message>
    <message>
        <source>Listing the result paths on %1 failed: %2</source>
        <translation>列出 %1 上的结果路径失败：%2</translation>
    </message>
    <message>
        <source>The results of %1 are still downloading; wait for the download to finish (or cancel it) before terminating, or they are lost with the instance.</source>
        <translation>%1 的结果仍在下载中；请等待下载完成（或取消下载）后再释放，否则结果会随实例一起丢失。</translation>
    </message>
    <message>
        <source>Downloading the results of %1 failed%2. Retry the download, or confirm that you want to terminate without them.</source>
        <translation>下载 %1 的结果失败%2。请重试下载，或确认不保留结果直接释放。</translation>
    </message>
    <message>
        <source>The job &quot;%1&quot; on %2 has a process id file that names no process it started; nothing was signalled. Check the job&apos;s processes with `ps` on the machine.</source>
        <translation>%2 上的作业“%1”的进程号文件未指向它启动的任何进程；未发送任何信号。请在该机器上用 `ps` 检查该作业的进程。</translation>
    </message>
</context>
<context>
    <name>gantry::jobs::JobService</name>
    <message>
        <source>%1 is not a saved host; add it first.</source>
        <translation>%1 不是已保存的主机；请先添加。</translation>
    </message>
    <message>
        <source>Jobs on %1 are not watched; select the machine first.</source>
        <translation>未在监视 %1 上的任务；请先选择该机器。</translation>
    </message>
</context>
<context>
    <name>gantry::monitor</name>
    <message>
        <source>The monitor loop on %1 ended%2; reconnecting.</source>
        <translation>%1 上的监控循环已结束%2；正在重新连接。</translation>
    </message>
    <message>
        <source>No data from %1 for %2 s: the connection seems dead; reconnecting.</source>
        <translation>%2 秒内未收到 %1 的数据：连接似乎已断开；正在重新连接。</translation>
    </message>
    <message>
        <source>nvidia-smi on %1 rejects the field &quot;%2&quot; that Gantry needs; update the NVIDIA driver.</source>
        <translation>%1 上的 nvidia-smi 不支持 Gantry 所需的字段“%2”；请更新 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>nvidia-smi on %1 rejected too many fields; update the NVIDIA driver.</source>
        <translation>%1 上的 nvidia-smi 拒绝了过多字段；请更新 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a process id: give the PID the process table shows (a number above 1).</source>
        <translation>“%1”不是进程 ID：请填写进程表中显示的 PID（大于 1 的数字）。</translation>
    </message>
    <message>
        <source>Process %1 is not running on %2 (it may have ended already); refresh the process table.</source>
        <translation>进程 %1 未在 %2 上运行（可能已经结束）；请刷新进程表。</translation>
    </message>
    <message>
        <source>Process %1 on %2 belongs to another user: log in as that user, or run &quot;sudo %3&quot; in a terminal on the machine.</source>
        <translation>%2 上的进程 %1 属于其他用户：请以该用户登录，或在该机器的终端中运行“sudo %3”。</translation>
    </message>
    <message>
        <source>kill on %1 failed with status %2 (%3); check the PID and try again.</source>
        <translation>在 %1 上执行 kill 失败，状态 %2（%3）；请检查 PID 后重试。</translation>
    </message>
    <message>
        <source>no message</source>
        <translation>无消息</translation>
    </message>
    <message>
        <source>power cap (software)</source>
        <translation>功率上限（软件）</translation>
    </message>
    <message>
        <source>hardware slowdown</source>
        <translation>硬件降频</translation>
    </message>
    <message>
        <source>thermal slowdown (software)</source>
        <translation>过热降频（软件）</translation>
    </message>
    <message>
        <source>thermal slowdown (hardware)</source>
        <translation>过热降频（硬件）</translation>
    </message>
    <message>
        <source>power brake (hardware)</source>
        <translation>功率制动（硬件）</translation>
    </message>
    <message>
        <source>nvidia-smi dmon --gpm-metrics ended without a row</source>
        <translation>nvidia-smi dmon --gpm-metrics 未输出任何数据行就结束了</translation>
    </message>
    <message>
        <source>nvidia-smi dmon --gpm-metrics reports no values (&quot;-&quot;) for this GPU</source>
        <translation>nvidia-smi dmon --gpm-metrics 对这块 GPU 没有给出数值（&quot;-&quot;）</translation>
    </message>
</context>
<context>
    <name>gantry::monitor::AlertEngine</name>
    <message>
        <source>nvidia-smi stopped responding: %1. Check `dmesg` for Xid errors; a reboot of the instance usually recovers the GPU.</source>
        <translation>nvidia-smi 停止响应：%1。请用 `dmesg` 检查是否有 Xid 错误；重启实例通常可以恢复 GPU。</translation>
    </message>
    <message>
        <source>no details</source>
        <translation>无详细信息</translation>
    </message>
    <message numerus="yes">
        <source>All %n GPU(s) have been idle for %1 minutes while the machine is billing. Stop it if you are done.</source>
        <translation>
            <numerusform>%n 块 GPU 已全部空闲 %1 分钟，而机器仍在计费。如果已用完，请将其关机。</numerusform>
        </translation>
    </message>
    <message>
        <source>Data loading is the bottleneck: GPU utilization averages %1 % while a CPU core is at %2 %. Raise DataLoader num_workers or move preprocessing to the GPU or offline.</source>
        <translation>数据加载是瓶颈：GPU 平均利用率为 %1 %，而某个 CPU 核心占用达 %2 %。请增大 DataLoader 的 num_workers，或将预处理移到 GPU 上或改为离线完成。</translation>
    </message>
    <message>
        <source>GPU %1 memory is %2 % full (%3 of %4 MiB): the next allocation may fail with CUDA out of memory. Lower the batch size or enable gradient checkpointing.</source>
        <translation>GPU %1 显存已用 %2 %（%3 / %4 MiB）：下一次分配可能因 CUDA out of memory 而失败。请减小 batch size，或启用梯度检查点（gradient checkpointing）。</translation>
    </message>
    <message>
        <source>GPU %1 is throttling (%2) at %3 °C: clocks are reduced. Report it to the provider if it persists.</source>
        <translation>GPU %1 在 %3 °C 时降频（%2）：频率已降低。如果持续出现，请报告给云服务商。</translation>
    </message>
    <message>
        <source>GPU %1 is held back by the power brake (external power supply limit): clocks are reduced. Report it to the provider.</source>
        <translation>GPU %1 受到硬件电源制动（power brake，外部供电限制）：频率已降低。请报告给云服务商。</translation>
    </message>
    <message>
        <source>GPU %1 PCIe link runs at Gen%2 x%3 under load, below its maximum Gen%4 x%5: host-to-GPU copies are slower. Ask the provider or pick another instance.</source>
        <translation>GPU %1 的 PCIe 链路在负载下运行于 Gen%2 x%3，低于其最高 Gen%4 x%5：主机到 GPU 的数据拷贝会变慢。请联系云服务商，或选择其他实例。</translation>
    </message>
    <message numerus="yes">
        <source>GPU %1 reported %n new uncorrected ECC error(s): results may be wrong. Save your work and ask the provider for another GPU.</source>
        <translation>
            <numerusform>GPU %1 报告了 %n 个新的不可纠正 ECC 错误：结果可能有误。请保存工作，并联系云服务商更换 GPU。</numerusform>
        </translation>
    </message>
    <message>
        <source>GPU utilization has stayed below %1 % for %2 minutes (now %3 %) while a job runs: the GPUs mostly wait. Usual causes are input loading (more DataLoader workers, faster storage, data on the instance&apos;s own disk) or too small a batch.</source>
        <translation>作业运行期间，GPU 利用率已连续 %2 分钟低于 %1 %（当前 %3 %）：GPU 大部分时间在等待。常见原因是输入加载（增加 DataLoader 的工作进程、使用更快的存储、把数据放到实例自己的磁盘上）或批大小过小。</translation>
    </message>
    <message>
        <source>Likely cause: a CPU-bound process (one core at %1 %).</source>
        <translation>可能原因：有进程受 CPU 限制（一个核心占用 %1 %）。</translation>
    </message>
    <message>
        <source>Likely cause: I/O wait (the CPUs spend %1 % of their time waiting for the disk or network storage).</source>
        <translation>可能原因：I/O 等待（CPU 有 %1 % 的时间在等待磁盘或网络存储）。</translation>
    </message>
    <message>
        <source>No CPU-bound process or I/O wait is visible on the host.</source>
        <translation>主机上未见受 CPU 限制的进程或 I/O 等待。</translation>
    </message>
</context>
<context>
    <name>gantry::monitor::IdlePolicy</name>
    <message>
        <source>transfers are still running</source>
        <translation>仍有传输在进行</translation>
    </message>
    <message>
        <source>jobs are still running</source>
        <translation>仍有任务在运行</translation>
    </message>
    <message>
        <source>Not going to %1 %2: %3.</source>
        <translation>不会%1 %2：%3。</translation>
    </message>
    <message>
        <source>the GPUs are busy again</source>
        <translation>GPU 又开始忙碌了</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>gantry::monitor::Sampler</name>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>%1 Retrying in %2 s.</source>
        <translation>%1 将在 %2 秒后重试。</translation>
    </message>
    <message>
        <source>No NVIDIA driver found on %1: showing host metrics only. Install the NVIDIA driver (nvidia-smi) to see the GPUs.</source>
        <translation>%1 上未找到 NVIDIA 驱动：仅显示主机指标。请安装 NVIDIA 驱动（nvidia-smi）以查看 GPU。</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>No sample from %1 for 3 intervals; showing the last one.</source>
        <translation>已连续 3 个采样周期未收到 %1 的数据，显示最近一次的采样。</translation>
    </message>
    <message>
        <source>The monitor stream on %1 ended.</source>
        <translation>%1 上的监控数据流已结束。</translation>
    </message>
</context>
<context>
    <name>gantry::providers</name>
    <message>
        <source>The provider did not answer in time.</source>
        <translation>云服务商未能及时响应。</translation>
    </message>
    <message>
        <source>Lambda Cloud</source>
        <translation>Lambda Cloud</translation>
    </message>
    <message>
        <source>RunPod</source>
        <translation>RunPod</translation>
    </message>
    <message>
        <source>Local sandbox</source>
        <translation>本地沙盒</translation>
    </message>
    <message>
        <source>Unknown provider &quot;%1&quot; (known: %2).</source>
        <translation>未知的云服务商“%1”（可用：%2）。</translation>
    </message>
    <message>
        <source>%1 reported an SSH address for instance %2 that Gantry will not use (%3), so no host was saved. The instance may still be billing: check it in the provider&apos;s console, terminate it if you do not trust it, and report the reply to the provider.</source>
        <translation>%1 为实例 %2 返回了 Gantry 不会使用的 SSH 地址（%3），因此没有保存主机。该实例可能仍在计费：请在云服务商控制台中检查，如不信任请释放它，并向云服务商报告此回复。</translation>
    </message>
    <message>
        <source>The local disk is included; filesystems bill about $0.20 per GB-month.</source>
        <translation>本地磁盘已包含在价格中；文件系统约每 GB 每月 $0.20。</translation>
    </message>
    <message>
        <source>Volume disk $0.10 per GB-month running, $0.20 stopped.</source>
        <translation>数据盘运行时每 GB 每月 $0.10，关机时 $0.20。</translation>
    </message>
    <message>
        <source>Disk billed per offer (typically $0.15 per GB-month) running and stopped.</source>
        <translation>磁盘按报价计费（通常每 GB 每月 $0.15），运行和关机时均计费。</translation>
    </message>
    <message>
        <source>The disk is included; there is no stopped state.</source>
        <translation>磁盘已包含在价格中；没有关机状态。</translation>
    </message>
    <message>
        <source>%1 has no rentable %2x%3 offer%4 right now (out of capacity). Try another GPU or region, or wait for one: gantry-cli watch-capacity --gpu &quot;%2&quot; --count %3 --providers %5</source>
        <translation>%1 目前没有可租用的 %2x%3 报价%4（无库存）。请换一种 GPU 或地域，或等待库存：gantry-cli watch-capacity --gpu &quot;%2&quot; --count %3 --providers %5</translation>
    </message>
    <message>
        <source> in %1</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>%1 has no instance type &quot;%2&quot; (see gantry-cli types --provider %3)</source>
        <translation>%1 没有实例规格“%2”（参见 gantry-cli types --provider %3）</translation>
    </message>
    <message>
        <source>Vast.ai</source>
        <translation>Vast.ai</translation>
    </message>
    <message>
        <source>Shadeform</source>
        <translation>Shadeform</translation>
    </message>
    <message>
        <source>Cannot write the price cache %1: %2</source>
        <translation>无法写入价格缓存 %1：%2</translation>
    </message>
    <message>
        <source>The %1 endpoint &quot;%2&quot; is not a valid URL (expected https://host[:port]).</source>
        <translation>%1 的端点“%2”不是有效的 URL（应为 https://host[:port]）。</translation>
    </message>
    <message>
        <source>Refusing plain http:// for the %1 endpoint %2: the API key would travel unencrypted. Use https://, or http:// only on 127.0.0.1/localhost.</source>
        <translation>拒绝对 %1 端点 %2 使用明文 http://：API 密钥将以未加密方式传输。请使用 https://；仅在 127.0.0.1/localhost 上可使用 http://。</translation>
    </message>
    <message>
        <source>The %1 endpoint must start with https:// (got &quot;%2&quot;).</source>
        <translation>%1 端点必须以 https:// 开头（当前为“%2”）。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The simulated GPU&apos;s script %1 is missing from this build.</source>
        <translation>此版本缺少模拟 GPU 的脚本 %1。</translation>
    </message>
    <message>
        <source>Local sandbox: OpenSSH&apos;s sftp-server was not found next to sshd; install openssh-sftp-server (or openssh-server).</source>
        <translation>本地沙盒：在 sshd 旁未找到 OpenSSH 的 sftp-server；请安装 openssh-sftp-server（或 openssh-server）。</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Booting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Unhealthy</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>Restarting</source>
        <translation>重启中</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>关机中</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已关机</translation>
    </message>
    <message>
        <source>Terminating</source>
        <translation>释放中</translation>
    </message>
    <message>
        <source>Terminated</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Local sandbox: %1 is not a private folder of this user (another user or a link made it); remove it and launch again.</source>
        <translation>本地沙盒：%1 不是当前用户的私有文件夹（由其他用户或链接创建）；请删除它后重新启动。</translation>
    </message>
    <message>
        <source>the container disk (everything outside the volume)</source>
        <translation>容器磁盘（卷以外的所有内容）</translation>
    </message>
    <message>
        <source>the %1 GB volume disk</source>
        <translation>%1 GB 的卷磁盘</translation>
    </message>
    <message>
        <source>the volume disk</source>
        <translation>卷磁盘</translation>
    </message>
    <message>
        <source>the instance&apos;s whole %1 GB disk (nothing is lost)</source>
        <translation>实例的整块 %1 GB 磁盘（不会丢失任何内容）</translation>
    </message>
    <message>
        <source>the instance&apos;s whole disk (nothing is lost)</source>
        <translation>实例的整块磁盘（不会丢失任何内容）</translation>
    </message>
    <message>
        <source>%1 has no volume named &quot;%2&quot;. See yours with gantry-cli volumes list --provider %3.</source>
        <translation>%1 没有名为“%2”的卷。用 gantry-cli volumes list --provider %3 查看你的卷。</translation>
    </message>
    <message>
        <source>%1 has %2 volumes named &quot;%3&quot;; name one by its id (gantry-cli volumes list --provider %4 shows them).</source>
        <translation>%1 有 %2 个名为“%3”的卷；请用 ID 指定其中一个（gantry-cli volumes list --provider %4 会列出它们）。</translation>
    </message>
    <message>
        <source>an instance</source>
        <translation>一台实例</translation>
    </message>
    <message>
        <source>Volume &quot;%1&quot; is attached to %2. Terminate that instance first, then delete the volume.</source>
        <translation>卷“%1”已挂载到 %2。请先终止该实例，再删除此卷。</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 GB used</source>
        <translation>已用 %1 GB</translation>
    </message>
    <message>
        <source>Deleting volume &quot;%1&quot; (%2 at %3, %4) erases every file on it; it cannot be undone.</source>
        <translation>删除卷“%1”（%3 上的 %2，%4）会抹掉其中的所有文件，且无法撤销。</translation>
    </message>
    <message>
        <source>%1 attaches one volume per launch; name only one.</source>
        <translation>%1 每次启动只能挂载一个卷；请只指定一个。</translation>
    </message>
    <message>
        <source>Volume &quot;%1&quot; is in %2, but the launch is in %3. Launch in %2, or create a volume in %3.</source>
        <translation>卷“%1”位于 %2，但启动位置是 %3。请在 %2 启动，或在 %3 创建一个卷。</translation>
    </message>
    <message>
        <source>%1 has no API key any more: add it in Settings → Accounts.</source>
        <translation>%1 已没有 API 密钥：请在“设置 → 账户”中添加。</translation>
    </message>
    <message>
        <source>No API key for %1. Add one in Settings → Accounts, set %2, or store one with: gantry-cli provider-key set %3</source>
        <translation>没有 %1 的 API 密钥。请在“设置 → 账户”中添加，或设置 %2，或用以下命令保存：gantry-cli provider-key set %3</translation>
    </message>
    <message>
        <source>%1 has no API key: add it in Settings → Accounts.</source>
        <translation>%1 没有 API 密钥：请在“设置 → 账户”中添加。</translation>
    </message>
    <message>
        <source>%1 has no volumes Gantry can create.</source>
        <translation>%1 没有 Gantry 可以创建的存储卷。</translation>
    </message>
    <message>
        <source>A %1 volume needs a size of at least %2 GB.</source>
        <translation>%1 的存储卷至少需要 %2 GB。</translation>
    </message>
    <message>
        <source>A %1 volume holds at most %2 GB.</source>
        <translation>%1 的存储卷最多 %2 GB。</translation>
    </message>
</context>
<context>
    <name>gantry::providers::CapacityWatcher</name>
    <message>
        <source>Capacity found: %1 on %2.</source>
        <translation>发现库存：%2 上的 %1。</translation>
    </message>
    <message>
        <source>Launched %1 on %2.</source>
        <translation>已在 %2 上创建 %1。</translation>
    </message>
    <message>
        <source>Gave up after %1 failed launches; the last: %2</source>
        <translation>创建失败 %1 次后放弃；最后一次：%2</translation>
    </message>
</context>
<context>
    <name>gantry::providers::LambdaProvider</name>
    <message>
        <source>Lambda Cloud</source>
        <translation>Lambda Cloud</translation>
    </message>
    <message>
        <source>Billed per minute from launch to terminate. Instances cannot be stopped; terminating loses the local disk. Filesystems bill per GB-month.</source>
        <translation>从创建到释放按分钟计费。实例不能关机；释放后本地磁盘数据将丢失。文件系统按 GB·月计费。</translation>
    </message>
    <message>
        <source>no &quot;data&quot; field in the reply</source>
        <translation>响应中没有 &quot;data&quot; 字段</translation>
    </message>
    <message>
        <source>API key was rejected.</source>
        <translation>API 密钥被拒绝。</translation>
    </message>
    <message>
        <source>The service had an internal error (HTTP %1).</source>
        <translation>服务发生内部错误（HTTP %1）。</translation>
    </message>
    <message>
        <source>The request failed with HTTP %1.</source>
        <translation>请求失败，HTTP %1。</translation>
    </message>
    <message>
        <source>Lambda Cloud: %1</source>
        <translation>Lambda Cloud：%1</translation>
    </message>
    <message>
        <source>Pick another region or instance type (the price table shows where capacity is).</source>
        <translation>请选择其他地域或实例类型（价格表会显示哪里有余量）。</translation>
    </message>
    <message>
        <source>Lambda Cloud sent instance types in an unknown shape.</source>
        <translation>Lambda Cloud 返回的实例类型格式无法识别。</translation>
    </message>
    <message>
        <source>the instance list is not an array</source>
        <translation>实例列表不是数组</translation>
    </message>
    <message>
        <source>the instance has no id</source>
        <translation>实例没有 id</translation>
    </message>
    <message>
        <source>A Lambda launch needs an instance type, a region and exactly one SSH key name.</source>
        <translation>创建 Lambda 实例需要指定实例类型、地域，以及恰好一个 SSH 密钥名称。</translation>
    </message>
    <message>
        <source>the launch reply has no instance id</source>
        <translation>创建实例的响应中没有实例 id</translation>
    </message>
    <message>
        <source>Lambda Cloud has no SSH key named &quot;%1&quot;.</source>
        <translation>Lambda Cloud 上没有名为“%1”的 SSH 密钥。</translation>
    </message>
    <message>
        <source>Terminate the instances that mount it first, then delete it again.</source>
        <translation>请先终止挂载它的实例，然后再删除。</translation>
    </message>
    <message>
        <source>Launch in the filesystem&apos;s region, or pick a filesystem in this region.</source>
        <translation>请在该文件系统所在的区域启动，或选择本区域的文件系统。</translation>
    </message>
    <message>
        <source>Lambda Cloud: &quot;%1&quot; is not a valid filesystem name. Use a letter first, then letters, digits and dashes (60 at most).</source>
        <translation>Lambda Cloud：“%1”不是有效的文件系统名称。请以字母开头，后面使用字母、数字和连字符（最多 60 个字符）。</translation>
    </message>
    <message>
        <source>Lambda Cloud: a filesystem needs a region (--region, e.g. us-east-1).</source>
        <translation>Lambda Cloud：文件系统需要指定区域（--region，例如 us-east-1）。</translation>
    </message>
    <message>
        <source>the new filesystem has no id</source>
        <translation>新文件系统没有 ID</translation>
    </message>
    <message>
        <source>Check your API key (Settings → Accounts, or gantry-cli provider-key set lambda) or create a new one.</source>
        <translation>请检查 API 密钥（“设置 → 账户”，或 gantry-cli provider-key set lambda），或新建一个。</translation>
    </message>
</context>
<context>
    <name>gantry::providers::LaunchAttempt</name>
    <message>
        <source>The provider went away before the launch.</source>
        <translation>创建前云服务商已不可用。</translation>
    </message>
    <message>
        <source>%1 The answer to the launch was lost, and Gantry could not check whether %2 created the instance anyway (%3). Look for an instance named &quot;%4&quot; with gantry-cli instances and terminate it if you do not want it: it may be billing.</source>
        <translation>%1 创建请求的响应丢失，且 Gantry 无法确认 %2 是否仍创建了实例（%3）。请用 gantry-cli instances 查找名为“%4”的实例，如不需要请释放：它可能正在计费。</translation>
    </message>
    <message>
        <source>The answer to the launch was lost (%1), but %2 created instance %3 named &quot;%4&quot;: Gantry adopted it, so it is tracked and billed in the ledger like any other.</source>
        <translation>创建请求的响应丢失（%1），但 %2 已创建名为“%4”的实例 %3：Gantry 已接管它，会像其他实例一样跟踪并记入账本。</translation>
    </message>
    <message>
        <source>%1 The answer to the launch was lost; Gantry looked for an instance named &quot;%2&quot; and found none, so nothing was launched and nothing is billing.</source>
        <translation>%1 创建请求的响应丢失；Gantry 查找了名为“%2”的实例但未找到，因此没有创建任何实例，也没有产生费用。</translation>
    </message>
</context>
<context>
    <name>gantry::providers::LaunchWatcher</name>
    <message>
        <source>The provider went away while waiting for the instance.</source>
        <translation>等待实例时与云服务商的连接已中断。</translation>
    </message>
    <message>
        <source>Instance %1 ended up %2 instead of running.</source>
        <translation>实例 %1 最终处于 %2 状态，而不是运行中。</translation>
    </message>
    <message>
        <source>Gantry terminated it so it does not keep billing.</source>
        <translation>Gantry 已将其释放，以免继续计费。</translation>
    </message>
    <message>
        <source>Terminating it failed too (%1): terminate it yourself, it may be billing.</source>
        <translation>释放也失败了（%1）：请手动释放，它可能仍在计费。</translation>
    </message>
    <message>
        <source>Instance %1 did not become active within %2 s. %3</source>
        <translation>实例 %1 在 %2 秒内未进入运行状态。%3</translation>
    </message>
</context>
<context>
    <name>gantry::providers::Provider</name>
    <message>
        <source>%1 cannot %2.</source>
        <translation>%1 不支持%2。</translation>
    </message>
    <message>
        <source>stop an instance (terminate it instead; its local disk is lost)</source>
        <translation>实例关机（请改为释放；其本地磁盘数据会丢失）</translation>
    </message>
    <message>
        <source>start a stopped instance</source>
        <translation>将已关机的实例开机</translation>
    </message>
    <message>
        <source>create volumes: its API has none</source>
        <translation>创建卷：其 API 不提供此功能</translation>
    </message>
    <message>
        <source>delete volumes: its API has none</source>
        <translation>删除卷：其 API 不提供此功能</translation>
    </message>
</context>
<context>
    <name>gantry::providers::RestProvider</name>
    <message>
        <source>%1 sent a reply Gantry cannot read (%2). The service may be having problems; try again in a minute.</source>
        <translation>%1 返回了 Gantry 无法解析的响应（%2）。该服务可能出现了问题，请稍等一分钟后重试。</translation>
    </message>
    <message>
        <source>Rate limited by %1 after %2 attempts; try again in %3 s.</source>
        <translation>尝试 %2 次后仍被 %1 限流，请在 %3 秒后重试。</translation>
    </message>
    <message>
        <source>Rate limited by %1 after %2 attempts; wait a minute and try again.</source>
        <translation>尝试 %2 次后仍被 %1 限流，请等待一分钟后重试。</translation>
    </message>
    <message>
        <source>Cannot connect to %1 at %2 (connection refused). Check your network, or the endpoint if you set one.</source>
        <translation>无法连接到 %1（%2，连接被拒绝）。请检查网络；如果设置了自定义端点，请检查端点。</translation>
    </message>
    <message>
        <source>Cannot resolve the host of %1 (%2). Check your network connection and DNS.</source>
        <translation>无法解析 %1 的主机名（%2）。请检查网络连接和 DNS。</translation>
    </message>
    <message>
        <source>%1 did not answer in time (%2). The service may be slow; try again.</source>
        <translation>%1 未能及时响应（%2）。该服务可能较慢，请重试。</translation>
    </message>
    <message>
        <source>Secure connection to %1 at %2 failed: %3. Gantry never sends your API key without verified TLS; check the endpoint URL, your clock and any proxy.</source>
        <translation>与 %1（%2）建立安全连接失败：%3。Gantry 绝不会在未经验证的 TLS 连接上发送 API 密钥；请检查端点 URL、系统时间和代理设置。</translation>
    </message>
    <message>
        <source>The request to %1 was cancelled.</source>
        <translation>发往 %1 的请求已取消。</translation>
    </message>
    <message>
        <source>Talking to %1 at %2 failed: %3.</source>
        <translation>与 %1（%2）通信失败：%3。</translation>
    </message>
    <message>
        <source>no &quot;%1&quot; list in the reply</source>
        <translation>响应中没有“%1”列表</translation>
    </message>
    <message>
        <source>%1 at %2 sent an answer larger than %3 MiB, more than any answer Gantry reads; none of it was used. Try again; if it repeats, check the endpoint.</source>
        <translation>%1（%2）返回的应答超过 %3 MiB，超出 Gantry 读取的任何应答；其内容均未使用。请重试；若再次出现，请检查端点地址。</translation>
    </message>
</context>
<context>
    <name>gantry::providers::RunPodProvider</name>
    <message>
        <source>RunPod</source>
        <translation>RunPod</translation>
    </message>
    <message>
        <source>Billed per second while running. A stopped pod still bills its volume disk (at twice the running rate); the container disk is wiped on stop.</source>
        <translation>运行期间按秒计费。关机的 pod 仍会按数据盘计费（费率为运行时的两倍）；关机时容器磁盘会被清空。</translation>
    </message>
    <message>
        <source>RunPod: %1</source>
        <translation>RunPod：%1</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>Add credit to your RunPod account; a deploy needs at least one hour&apos;s worth.</source>
        <translation>请为 RunPod 账户充值；部署至少需要足够一小时的余额。</translation>
    </message>
    <message>
        <source>Your account has no access to this resource or GPU pool.</source>
        <translation>您的账户无权访问此资源或 GPU 池。</translation>
    </message>
    <message>
        <source>RunPod had an internal error; try again shortly.</source>
        <translation>RunPod 发生内部错误，请稍后重试。</translation>
    </message>
    <message>
        <source>Price for one GPU; up to %1 per pod.</source>
        <translation>单卡价格；每个 pod 最多 %1 卡。</translation>
    </message>
    <message>
        <source>Any data center</source>
        <translation>任意数据中心</translation>
    </message>
    <message>
        <source>no &quot;gpus&quot; list in the catalog</source>
        <translation>目录中没有 &quot;gpus&quot; 列表</translation>
    </message>
    <message>
        <source>no &quot;pods&quot; list in the reply</source>
        <translation>响应中没有 &quot;pods&quot; 列表</translation>
    </message>
    <message>
        <source>the pod has no id</source>
        <translation>pod 没有 id</translation>
    </message>
    <message>
        <source>A RunPod launch needs a GPU type.</source>
        <translation>创建 RunPod 实例需要指定 GPU 类型。</translation>
    </message>
    <message>
        <source>RunPod: no account SSH key named &quot;%1&quot;. Add it first (gantry-cli keys add --provider runpod NAME FILE.pub).</source>
        <translation>RunPod：账户中没有名为“%1”的 SSH 密钥。请先添加（gantry-cli keys add --provider runpod NAME FILE.pub）。</translation>
    </message>
    <message>
        <source>RunPod: your account has no SSH keys, so the pod would be unreachable. Add one first (gantry-cli keys add --provider runpod NAME FILE.pub).</source>
        <translation>RunPod：您的账户中没有 SSH 密钥，pod 将无法连接。请先添加一个（gantry-cli keys add --provider runpod NAME FILE.pub）。</translation>
    </message>
    <message>
        <source>the new pod has no id</source>
        <translation>新建的 pod 没有 id</translation>
    </message>
    <message>
        <source>no &quot;keys&quot; list in the reply</source>
        <translation>响应中没有 &quot;keys&quot; 列表</translation>
    </message>
    <message>
        <source>RunPod cannot generate keys; give an OpenSSH public key (&quot;ssh-ed25519 AAAA… comment&quot;), e.g. from gantry-cli keys generate.</source>
        <translation>RunPod 无法生成密钥；请提供 OpenSSH 公钥（&quot;ssh-ed25519 AAAA… comment&quot;），例如用 gantry-cli keys generate 生成。</translation>
    </message>
    <message>
        <source>RunPod has no account SSH key named &quot;%1&quot;.</source>
        <translation>RunPod 账户中没有名为“%1”的 SSH 密钥。</translation>
    </message>
    <message>
        <source>RunPod PyTorch (CUDA 12.8)</source>
        <translation>RunPod PyTorch（CUDA 12.8）</translation>
    </message>
    <message>
        <source>RunPod: a network volume needs a name, a data center (--region, e.g. US-KS-2) and a size of 10 to 4096 GB.</source>
        <translation>RunPod：网络卷需要名称、数据中心（--region，例如 US-KS-2）以及 10 到 4096 GB 的容量。</translation>
    </message>
    <message>
        <source>the new network volume has no id</source>
        <translation>新网络卷没有 ID</translation>
    </message>
    <message>
        <source>Check your API key (Settings → Accounts, or gantry-cli provider-key set runpod).</source>
        <translation>请检查 API 密钥（“设置 → 账户”，或 gantry-cli provider-key set runpod）。</translation>
    </message>
</context>
<context>
    <name>gantry::providers::SandboxProvider</name>
    <message>
        <source>Local sandbox</source>
        <translation>本地沙盒</translation>
    </message>
    <message>
        <source>Nothing is charged: instances are sshd processes on this machine. Prices are pretend, to try budgets and meters.</source>
        <translation>不产生任何费用：实例就是本机上的 sshd 进程。价格是虚拟的，用于试用预算和计费功能。</translation>
    </message>
    <message>
        <source>This machine (127.0.0.1)</source>
        <translation>本机（127.0.0.1）</translation>
    </message>
    <message>
        <source>Local sshd, no GPU</source>
        <translation>本地 sshd，无 GPU</translation>
    </message>
    <message>
        <source>Free: a real sshd on 127.0.0.1.</source>
        <translation>免费：127.0.0.1 上真实运行的 sshd。</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>The operating system Gantry runs on</source>
        <translation>Gantry 所运行的操作系统</translation>
    </message>
    <message>
        <source>Local sandbox: Specified instance does not exist. [global/object-does-not-exist] (%1)</source>
        <translation>本地沙盒：指定的实例不存在。[global/object-does-not-exist]（%1）</translation>
    </message>
    <message>
        <source>Local sandbox: the record of instance %1 is damaged; terminate it.</source>
        <translation>本地沙盒：实例 %1 的记录已损坏，请将其释放。</translation>
    </message>
    <message>
        <source>Local sandbox: cannot run %1 (%2). Install openssh-server.</source>
        <translation>本地沙盒：无法运行 %1（%2）。请安装 openssh-server。</translation>
    </message>
    <message>
        <source>Local sandbox: sshd did not start: %1</source>
        <translation>本地沙盒：sshd 未能启动：%1</translation>
    </message>
    <message>
        <source>Local sandbox: unknown instance type &quot;%1&quot; (try sandbox-cpu). [global/invalid-parameters]</source>
        <translation>本地沙盒：未知的实例类型“%1”（可试试 sandbox-cpu）。[global/invalid-parameters]</translation>
    </message>
    <message>
        <source>Local sandbox: Not enough capacity to fulfill launch request in region &quot;%1&quot;; the only region is &quot;local&quot;. [instance-operations/launch/insufficient-capacity]</source>
        <translation>本地沙盒：地域“%1”的容量不足，无法完成创建请求；唯一可用的地域是“local”。[instance-operations/launch/insufficient-capacity]</translation>
    </message>
    <message>
        <source>Local sandbox: no SSH key named &quot;%1&quot;. Add it with gantry-cli keys add --provider sandbox. [global/object-does-not-exist]</source>
        <translation>本地沙盒：没有名为“%1”的 SSH 密钥。请用 gantry-cli keys add --provider sandbox 添加。[global/object-does-not-exist]</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Cannot delete %1.</source>
        <translation>无法删除 %1。</translation>
    </message>
    <message>
        <source>Local sandbox: The request conflicts with the current state of the resource (it is still booting). [global/conflict]</source>
        <translation>本地沙盒：请求与资源的当前状态冲突（实例仍在启动中）。[global/conflict]</translation>
    </message>
    <message>
        <source>An SSH key name must have 1 to 64 characters.</source>
        <translation>SSH 密钥名称必须为 1 到 64 个字符。</translation>
    </message>
    <message>
        <source>Local sandbox: an SSH key named &quot;%1&quot; already exists. [global/duplicate]</source>
        <translation>本地沙盒：名为“%1”的 SSH 密钥已存在。[global/duplicate]</translation>
    </message>
    <message>
        <source>Local sandbox has no SSH key named &quot;%1&quot;.</source>
        <translation>本地沙盒中没有名为“%1”的 SSH 密钥。</translation>
    </message>
    <message>
        <source>1x H100 80GB (simulated GPU, idle)</source>
        <translation>1x H100 80GB（模拟 GPU，空闲）</translation>
    </message>
    <message>
        <source>Simulated GPU at idle, to try the idle policy; a pretend price, nothing is charged.</source>
        <translation>空闲状态的模拟 GPU，用于试用空闲策略；价格是虚拟的，不产生任何费用。</translation>
    </message>
    <message>
        <source>1x H100 80GB (simulated GPU, training)</source>
        <translation>1x H100 80GB（模拟 GPU，训练中）</translation>
    </message>
    <message>
        <source>%1, spot (may be reclaimed)</source>
        <translation>%1，竞价实例（可能被回收）</translation>
    </message>
    <message>
        <source>Spot: cheaper, and reclaimed without warning when someone runs gantry-cli preempt on it; a pretend price, nothing is charged.</source>
        <translation>竞价实例：更便宜，有人对它运行 gantry-cli preempt 时会被无预警回收；价格是模拟的，不会产生任何费用。</translation>
    </message>
    <message>
        <source>Local sandbox: instance %1 runs on demand; only spot instances are reclaimed (launch a *-spot type).</source>
        <translation>本地沙盒：实例 %1 是按需实例；只有竞价实例会被回收（请启动 *-spot 类型）。</translation>
    </message>
    <message>
        <source>Simulated GPU running a training job starved by its data loader (30 % utilization), to try Monitor and its alerts: the low-utilization alert comes after five minutes, and a CPU-bound job on it brings the data-loader hint. A pretend price; nothing is charged.</source>
        <translation>模拟 GPU 上运行着一个被数据加载拖慢的训练作业（利用率 30 %），用于试用监控及其警报：五分钟后出现低利用率警报，在上面运行一个占满 CPU 的作业会出现数据加载提示。价格是假的，不会收费。</translation>
    </message>
</context>
<context>
    <name>gantry::providers::ShadeformProvider</name>
    <message>
        <source>Shadeform</source>
        <translation>Shadeform</translation>
    </message>
    <message>
        <source>Billed per second at the underlying cloud&apos;s rate until deleted. Instances cannot be stopped; deleting loses the local disk.</source>
        <translation>按底层云的价格每秒计费，直到删除。实例无法关机；删除后本地磁盘数据将丢失。</translation>
    </message>
    <message>
        <source>%1 on %2 (%3)</source>
        <translation>%2 上的 %1（%3）</translation>
    </message>
    <message>
        <source>Spot from $%1/h.</source>
        <translation>竞价实例低至 $%1/h。</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>Shadeform: %1</source>
        <translation>Shadeform：%1</translation>
    </message>
    <message>
        <source>The key belongs to another account or workspace than this resource.</source>
        <translation>该密钥所属的账户或工作区与此资源不同。</translation>
    </message>
    <message>
        <source>Insufficient balance: top up your Shadeform wallet, then launch again.</source>
        <translation>余额不足：请为 Shadeform 钱包充值后再创建。</translation>
    </message>
    <message>
        <source>Quota reached: delete an instance or ask Shadeform to raise the limit.</source>
        <translation>已达配额上限：请删除一个实例，或请 Shadeform 提高限额。</translation>
    </message>
    <message>
        <source>Shadeform had an internal error; try again shortly.</source>
        <translation>Shadeform 出现内部错误，请稍后重试。</translation>
    </message>
    <message>
        <source>no &quot;instance_types&quot; list in the reply</source>
        <translation>响应中没有“instance_types”列表</translation>
    </message>
    <message>
        <source>the instance has no id</source>
        <translation>实例没有 ID</translation>
    </message>
    <message>
        <source>A Shadeform launch needs --type CLOUD/TYPE as gantry-cli types --provider shadeform lists it, a --region of that type and an SSH key.</source>
        <translation>Shadeform 创建需要 --type CLOUD/TYPE（如 gantry-cli types --provider shadeform 所列）、该规格的 --region 以及一个 SSH 密钥。</translation>
    </message>
    <message>
        <source>Shadeform: no SSH key named &quot;%1&quot;. Add it first (gantry-cli keys add --provider shadeform NAME FILE.pub).</source>
        <translation>Shadeform：没有名为“%1”的 SSH 密钥。请先添加（gantry-cli keys add --provider shadeform NAME FILE.pub）。</translation>
    </message>
    <message>
        <source>the create reply has no instance id</source>
        <translation>创建响应中没有实例 ID</translation>
    </message>
    <message>
        <source>no &quot;ssh_keys&quot; list in the reply</source>
        <translation>响应中没有“ssh_keys”列表</translation>
    </message>
    <message>
        <source>the new key has no id</source>
        <translation>新密钥没有 ID</translation>
    </message>
    <message>
        <source>Shadeform has no SSH key named &quot;%1&quot;.</source>
        <translation>Shadeform 上没有名为“%1”的 SSH 密钥。</translation>
    </message>
    <message>
        <source>Shadeform: a volume needs a name, a region and a size in GB.</source>
        <translation>Shadeform：卷需要名称、区域和以 GB 计的容量。</translation>
    </message>
    <message>
        <source>Shadeform offers no volumes in %1. Regions with volumes: %2.</source>
        <translation>Shadeform 在 %1 不提供卷。提供卷的区域：%2。</translation>
    </message>
    <message>
        <source>the new volume has no id</source>
        <translation>新卷没有 ID</translation>
    </message>
    <message>
        <source>Check your API key (Settings → Accounts, or gantry-cli provider-key set shadeform).</source>
        <translation>请检查 API 密钥（“设置 → 账户”，或 gantry-cli provider-key set shadeform）。</translation>
    </message>
    <message>
        <source>Out of capacity: try another region or type (Prices, or gantry-cli types --provider shadeform --available).</source>
        <translation>无库存：请尝试其他地域或规格（“价格”，或 gantry-cli types --provider shadeform --available）。</translation>
    </message>
    <message>
        <source>Shadeform keys need a public key (Tools → SSH keys… → Generate new key…, or gantry-cli keys generate); Gantry does not use the Shadeform Managed Key.</source>
        <translation>Shadeform 密钥需要提供公钥（“工具 → SSH 密钥… → 生成新密钥…”，或 gantry-cli keys generate）；Gantry 不使用 Shadeform 托管密钥。</translation>
    </message>
</context>
<context>
    <name>gantry::providers::VastProvider</name>
    <message>
        <source>Vast.ai</source>
        <translation>Vast.ai</translation>
    </message>
    <message>
        <source>Billed per second while running; the disk bills for as long as the instance exists, stopped too. Each offer is one host&apos;s machine with its own price and reliability.</source>
        <translation>运行时按秒计费；只要实例存在（包括关机时），磁盘就持续计费。每个报价都是某个主机提供者的一台机器，价格和可靠性各不相同。</translation>
    </message>
    <message>
        <source>%1x %2, %3 GB each, %4</source>
        <translation>%1 × %2，每块 %3 GB，%4</translation>
    </message>
    <message>
        <source>location unknown</source>
        <translation>位置未知</translation>
    </message>
    <message>
        <source>Interruptible from $%1/h.</source>
        <translation>可中断实例低至 $%1/h。</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>Vast.ai: %1</source>
        <translation>Vast.ai：%1</translation>
    </message>
    <message>
        <source>Someone else rented that offer (out of capacity); pick another one (gantry-cli types --provider vast).</source>
        <translation>该报价已被他人租用（无库存）；请另选一个（gantry-cli types --provider vast）。</translation>
    </message>
    <message>
        <source>Insufficient balance: add credit at https://cloud.vast.ai/billing/ and try again.</source>
        <translation>余额不足：请在 https://cloud.vast.ai/billing/ 充值后重试。</translation>
    </message>
    <message>
        <source>The bid is below the offer&apos;s minimum; bid at least its interruptible price.</source>
        <translation>出价低于该报价的最低价；出价至少应为其可中断价格。</translation>
    </message>
    <message>
        <source>Bad image: check the image name (docker pull must work for it).</source>
        <translation>镜像无效：请检查镜像名称（必须能用 docker pull 拉取）。</translation>
    </message>
    <message>
        <source>Vast.ai had an internal error; try again shortly.</source>
        <translation>Vast.ai 出现内部错误，请稍后重试。</translation>
    </message>
    <message>
        <source>Vast.ai sent a reply Gantry cannot read (%1). The service may be having problems; try again in a minute.</source>
        <translation>Vast.ai 返回了 Gantry 无法解析的响应（%1）。该服务可能出现了问题，请稍等一分钟后重试。</translation>
    </message>
    <message>
        <source>Vast.ai sent a reply Gantry cannot read (no &quot;offers&quot; in the search reply). The service may be having problems; try again in a minute.</source>
        <translation>Vast.ai 返回了 Gantry 无法解析的响应（搜索结果中没有“offers”）。该服务可能出现了问题，请稍等一分钟后重试。</translation>
    </message>
    <message>
        <source>Vast.ai: instance %1 not found (destroyed?).</source>
        <translation>Vast.ai：未找到实例 %1（是否已销毁？）。</translation>
    </message>
    <message>
        <source>the instance has no id</source>
        <translation>实例没有 ID</translation>
    </message>
    <message>
        <source>Vast.ai: no account SSH key named &quot;%1&quot;. Add it first (gantry-cli keys add --provider vast NAME FILE.pub).</source>
        <translation>Vast.ai：账户中没有名为“%1”的 SSH 密钥。请先添加（gantry-cli keys add --provider vast NAME FILE.pub）。</translation>
    </message>
    <message>
        <source>Vast.ai: your account has no SSH keys, so the instance would be unreachable. Add one first (gantry-cli keys add --provider vast NAME FILE.pub).</source>
        <translation>Vast.ai：你的账户没有 SSH 密钥，实例将无法连接。请先添加一个（gantry-cli keys add --provider vast NAME FILE.pub）。</translation>
    </message>
    <message>
        <source>A Vast.ai launch needs an offer id or GPUxN such as H100x1 (gantry-cli types --provider vast lists offers).</source>
        <translation>Vast.ai 创建需要报价 ID 或 GPUxN（例如 H100x1）（gantry-cli types --provider vast 会列出报价）。</translation>
    </message>
    <message>
        <source>the rent reply has no &quot;new_contract&quot; id</source>
        <translation>租用响应中没有“new_contract” ID</translation>
    </message>
    <message>
        <source>Vast.ai cannot generate keys; give an OpenSSH public key (&quot;ssh-ed25519 AAAA… comment&quot;), e.g. from gantry-cli keys generate.</source>
        <translation>Vast.ai 无法生成密钥；请提供 OpenSSH 公钥（“ssh-ed25519 AAAA… 注释”），例如用 gantry-cli keys generate 生成。</translation>
    </message>
    <message>
        <source>the new key has no id</source>
        <translation>新密钥没有 ID</translation>
    </message>
    <message>
        <source>Vast.ai has no SSH key named &quot;%1&quot;.</source>
        <translation>Vast.ai 上没有名为“%1”的 SSH 密钥。</translation>
    </message>
    <message>
        <source>Vast.ai: volume &quot;%1&quot; lives on machine %2, which has no %3 offer now. Launch there later, or use another volume.</source>
        <translation>Vast.ai：卷“%1”位于机器 %2 上，该机器目前没有 %3 的报价。请稍后在那里启动，或改用其他卷。</translation>
    </message>
    <message>
        <source>Vast.ai: a volume needs a size in GB.</source>
        <translation>Vast.ai：卷需要以 GB 计的容量。</translation>
    </message>
    <message>
        <source>the new volume has no &quot;volume_name&quot;</source>
        <translation>新卷没有“volume_name”</translation>
    </message>
    <message>
        <source>Vast.ai: &quot;%1&quot; is not a volume id (a number, or V.&lt;number&gt;).</source>
        <translation>Vast.ai：“%1”不是卷 ID（应为数字或 V.&lt;数字&gt;）。</translation>
    </message>
    <message>
        <source>Vast.ai has no volume offer with %1 GB free now. Try a smaller size.</source>
        <translation>Vast.ai 目前没有剩余 %1 GB 的卷报价。请尝试更小的容量。</translation>
    </message>
    <message>
        <source>Vast.ai has no volume offer with %1 GB free in %2 now. Try a smaller size or another region.</source>
        <translation>Vast.ai 目前在 %2 没有剩余 %1 GB 的卷报价。请尝试更小的容量或其他区域。</translation>
    </message>
    <message>
        <source>Check your API key (Settings → Accounts, or gantry-cli provider-key set vast).</source>
        <translation>请检查 API 密钥（“设置 → 账户”，或 gantry-cli provider-key set vast）。</translation>
    </message>
</context>
<context>
    <name>gantry::runs</name>
    <message>
        <source>The machine sent an unsafe path (%1); nothing was written.</source>
        <translation>机器发来了不安全的路径（%1）；没有写入任何内容。</translation>
    </message>
    <message>
        <source>Cannot write %1 at home: %2; free some disk space.</source>
        <translation>无法在本机写入 %1：%2；请释放一些磁盘空间。</translation>
    </message>
    <message>
        <source>Cannot create %1; check its permissions.</source>
        <translation>无法创建 %1；请检查其权限。</translation>
    </message>
    <message>
        <source>The mirror was stopped.</source>
        <translation>镜像已停止。</translation>
    </message>
    <message>
        <source>The link dropped during the mirror; the last complete copies stay at home.</source>
        <translation>镜像过程中连接断开；本机保留最后一份完整副本。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>Run %1 started.</source>
        <translation>运行 %1 已开始。</translation>
    </message>
    <message>
        <source>Run %1 stopped: it reached max_cost (%2).</source>
        <translation>运行 %1 已停止：已达到 max_cost（%2）。</translation>
    </message>
    <message>
        <source>No offer fits the spec now (%1, %2 GPU, spot %3); looking again in %4 s.</source>
        <translation>目前没有符合规格的报价（%1，%2 GPU，竞价 %3）；%4 秒后再找。</translation>
    </message>
    <message>
        <source>Run %1 stopped: another machine would cross max_cost (%2).</source>
        <translation>运行 %1 已停止：再租一台机器会超过 max_cost（%2）。</translation>
    </message>
    <message>
        <source>run %1: never came up</source>
        <translation>运行 %1：机器始终没有启动</translation>
    </message>
    <message>
        <source>Launching %1 on %2 at %3/h.</source>
        <translation>正在 %2 上启动 %1，每小时 %3。</translation>
    </message>
    <message>
        <source>The machine&apos;s host was not saved.</source>
        <translation>未能保存该机器的主机。</translation>
    </message>
    <message>
        <source>Syncing the workdir and restoring the last checkpoint to %1.</source>
        <translation>正在把工作目录同步到 %1 并恢复最后一个检查点。</translation>
    </message>
    <message>
        <source>Syncing the workdir to %1.</source>
        <translation>正在把工作目录同步到 %1。</translation>
    </message>
    <message>
        <source>Attempt %1 running on %2.</source>
        <translation>第 %1 次尝试正在 %2 上运行。</translation>
    </message>
    <message>
        <source>Run %1 stopped.</source>
        <translation>运行 %1 已停止。</translation>
    </message>
    <message>
        <source>Checkpoint home: %1.</source>
        <translation>检查点已取回本机：%1。</translation>
    </message>
    <message>
        <source>The machine does not answer SSH (%1); waiting up to %2 s.</source>
        <translation>机器没有响应 SSH（%1）；最多等待 %2 秒。</translation>
    </message>
    <message>
        <source>Run %1 failed: it lost %2 machines, more than max_preemptions (%3).</source>
        <translation>运行 %1 失败：失去了 %2 台机器，超过 max_preemptions（%3）。</translation>
    </message>
    <message>
        <source>Attempt %1 failed: %2.</source>
        <translation>第 %1 次尝试失败：%2。</translation>
    </message>
    <message>
        <source>Run %1 failed: the job exited %2 on %3 of %4 allowed attempts.</source>
        <translation>运行 %1 失败：作业以 %2 退出，已用 %3 次（共允许 %4 次）尝试。</translation>
    </message>
    <message>
        <source>The job exited 0; bringing the checkpoint and the results home.</source>
        <translation>作业以 0 退出；正在把检查点和结果取回本机。</translation>
    </message>
    <message>
        <source>Run %1: the results could not come home (%2); the machine %3 is kept so nothing is lost: download them and terminate it.</source>
        <translation>运行 %1：结果未能取回本机（%2）；为避免丢失，保留了机器 %3：请下载结果后再终止它。</translation>
    </message>
    <message>
        <source>Run %1 succeeded; results in %2.</source>
        <translation>运行 %1 成功；结果在 %2。</translation>
    </message>
    <message>
        <source>run %1: %2</source>
        <translation>运行 %1：%2</translation>
    </message>
    <message>
        <source>Could not terminate %1 on %2 (%3); it may still bill: terminate it with gantry-cli terminate %1 --provider %2.</source>
        <translation>无法终止 %2 上的 %1（%3）；它可能仍在计费：请用 gantry-cli terminate %1 --provider %2 终止它。</translation>
    </message>
    <message>
        <source>results: %1 is outside the workdir; name a path inside it.</source>
        <translation>results：%1 在工作目录之外；请写工作目录内的路径。</translation>
    </message>
    <message>
        <source>%1 line %2: %3: %4</source>
        <translation>%1 第 %2 行：%3：%4</translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <translation>%1：%2：%3</translation>
    </message>
    <message>
        <source>expected text; write it on one line or as a block (|).</source>
        <translation>应为文本；请写在一行内或写成块（|）。</translation>
    </message>
    <message>
        <source>expected a number of at least %1, such as 3.5.</source>
        <translation>应为不小于 %1 的数字，例如 3.5。</translation>
    </message>
    <message>
        <source>expected a whole number of at least %1.</source>
        <translation>应为不小于 %1 的整数。</translation>
    </message>
    <message>
        <source>expected true or false.</source>
        <translation>应为 true 或 false。</translation>
    </message>
    <message>
        <source>expected a list, such as [a, b].</source>
        <translation>应为列表，例如 [a, b]。</translation>
    </message>
    <message>
        <source>not a field of a run spec; the fields here are %1.</source>
        <translation>不是运行规格的字段；这里的字段有 %1。</translation>
    </message>
    <message>
        <source>expected a map, such as {gpu: H100, count: 1}.</source>
        <translation>应为映射，例如 {gpu: H100, count: 1}。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a provider; use %2.</source>
        <translation>“%1”不是服务商；请使用 %2。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a GPU model Gantry knows; write one such as H100, A100 or RTX 4090, or any.</source>
        <translation>“%1”不是 Gantry 认识的 GPU 型号；请写 H100、A100 或 RTX 4090 等型号，或写 any。</translation>
    </message>
    <message>
        <source>expected {path: checkpoints/, every: 5m}.</source>
        <translation>应为 {path: checkpoints/, every: 5m}。</translation>
    </message>
    <message>
        <source>write a folder inside the workdir, such as checkpoints/.</source>
        <translation>请写工作目录内的文件夹，例如 checkpoints/。</translation>
    </message>
    <message>
        <source>expected a map, such as {WANDB_PROJECT: ft}.</source>
        <translation>应为映射，例如 {WANDB_PROJECT: ft}。</translation>
    </message>
    <message>
        <source>expected NAME: value, NAME a shell variable name.</source>
        <translation>应为 NAME: value，NAME 是 shell 变量名。</translation>
    </message>
    <message>
        <source>expected on-failure or never.</source>
        <translation>应为 on-failure 或 never。</translation>
    </message>
    <message>
        <source>is required; a spec needs at least name, resources and run.</source>
        <translation>为必填项；规格至少需要 name、resources 和 run。</translation>
    </message>
    <message>
        <source>is empty; write the command that trains.</source>
        <translation>为空；请写训练用的命令。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a duration; write it as 30s, 5m or 1h.</source>
        <translation>“%1”不是时长；请写成 30s、5m 或 1h。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a run; use letters, digits, dot, dash and underscore (up to 48, starting with a letter or digit).</source>
        <translation>“%1”不能用作运行名称；请使用字母、数字、点、短横线和下划线（最多 48 个，以字母或数字开头）。</translation>
    </message>
    <message>
        <source>%1 line %2: not valid YAML (%3); fix it and start again.</source>
        <translation>%1 第 %2 行：不是有效的 YAML（%3）；请修正后重新开始。</translation>
    </message>
    <message>
        <source>%1: a run spec is a map of fields (name:, resources:, run:).</source>
        <translation>%1：运行规格是字段映射（name:、resources:、run:）。</translation>
    </message>
    <message>
        <source>version %1 is newer than this Gantry reads (%2); update Gantry.</source>
        <translation>版本 %1 比此 Gantry 能读取的版本（%2）更新；请更新 Gantry。</translation>
    </message>
    <message>
        <source>%1 line %2: %3</source>
        <translation>%1 第 %2 行：%3</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot create %1; check the permissions of the config folder.</source>
        <translation>无法创建 %1；请检查配置文件夹的权限。</translation>
    </message>
    <message>
        <source>%1 is damaged; remove the folder %2 to forget the run.</source>
        <translation>%1 已损坏；删除文件夹 %2 即可忘掉这次运行。</translation>
    </message>
    <message>
        <source>The checkpoint could not be restored on the machine: %1</source>
        <translation>无法在机器上恢复检查点：%1</translation>
    </message>
    <message>
        <source>The secret %1 is neither in the keychain (as %2) nor in the environment; export %1 before starting the run.</source>
        <translation>密钥 %1 既不在钥匙串中（%2），也不在环境变量中；请在启动运行前导出 %1。</translation>
    </message>
    <message>
        <source>No process drives run %1 any more, and it holds no machine.</source>
        <translation>已没有进程驱动运行 %1，它也没有占用机器。</translation>
    </message>
    <message>
        <source>Run %1 is already running here; start this one under another name.</source>
        <translation>运行 %1 已在此处进行；请用另一个名称启动这个运行。</translation>
    </message>
    <message>
        <source>Run %1 is driven by process %2; stop it first, or start this one under another name.</source>
        <translation>运行 %1 由进程 %2 驱动；请先停止它，或用另一个名称启动这个运行。</translation>
    </message>
    <message>
        <source>Run %1 handed to gantry-cli watch, which drives it from now on.</source>
        <translation>运行 %1 已交给 gantry-cli watch，此后由它驱动。</translation>
    </message>
    <message>
        <source>Run %1 taken over by process %2: the process that drove it (%3) ended.</source>
        <translation>运行 %1 已由进程 %2 接管：原先驱动它的进程（%3）已结束。</translation>
    </message>
    <message>
        <source>Run %1 has not ended (%2); stop it first, or start this one under another name.</source>
        <translation>运行 %1 尚未结束（%2）；请先停止它，或用另一个名称启动这个运行。</translation>
    </message>
    <message>
        <source>Run %1 is driven by process %2 (%3); stop it first, or start this one under another name.</source>
        <translation>运行 %1 由进程 %2（%3）驱动；请先停止它，或用另一个名称启动这个运行。</translation>
    </message>
    <message>
        <source>Run %1 is already driven here.</source>
        <translation>运行 %1 已由此处驱动。</translation>
    </message>
    <message>
        <source>Run %1 has ended (%2); there is nothing to take over.</source>
        <translation>运行 %1 已结束（%2）；没有可接管的内容。</translation>
    </message>
    <message>
        <source>Run %1 is driven by process %2.</source>
        <translation>运行 %1 由进程 %2 驱动。</translation>
    </message>
    <message>
        <source>Run %1 cannot be taken over: %2</source>
        <translation>无法接管运行 %1：%2</translation>
    </message>
    <message>
        <source>Cannot create %1 on the machine: %2</source>
        <translation>无法在机器上创建 %1：%2</translation>
    </message>
    <message>
        <source> for node %1</source>
        <translation>（节点 %1）</translation>
    </message>
    <message>
        <source>Attempt %1: %2 on %3 (%4)%5.</source>
        <translation>第 %1 次尝试：%3 上的 %2（%4）%5。</translation>
    </message>
    <message>
        <source>Node %1 (%2) is up; waiting for the other nodes.</source>
        <translation>节点 %1（%2）已就绪，正在等待其他节点。</translation>
    </message>
    <message>
        <source>The provider %1 is not configured.</source>
        <translation>服务商 %1 尚未配置。</translation>
    </message>
    <message>
        <source> (node %1)</source>
        <translation>（节点 %1）</translation>
    </message>
    <message>
        <source>Attempt %1 lost its machine%2: %3 (%4).</source>
        <translation>第 %1 次尝试失去了机器%2：%3（%4）。</translation>
    </message>
    <message>
        <source>No run named %1; the Runs panel (gantry-cli run list) shows the runs.</source>
        <translation>没有名为 %1 的运行；“运行”面板（gantry-cli run list）会列出所有运行。</translation>
    </message>
    <message>
        <source>%1 in the bucket is damaged; remove it (and its a/ and b/ folders) to start the checkpoints afresh.</source>
        <translation>存储桶中的 %1 已损坏；删除它（以及其 a/ 和 b/ 文件夹）即可重新开始保存检查点。</translation>
    </message>
    <message>
        <source>checkpoint.store: %1</source>
        <translation>checkpoint.store：%1</translation>
    </message>
    <message>
        <source>write a bucket added with gantry-cli storage add (or in Storage) and a prefix, such as s3://data/runs/llama-ft/.</source>
        <translation>请写一个已用 gantry-cli storage add（或在“存储”中）添加的存储桶和前缀，例如 s3://data/runs/llama-ft/。</translation>
    </message>
    <message>
        <source>The checkpoint could not go to the bucket (%1); the job goes on and the next mirror tries again.</source>
        <translation>检查点无法送入存储桶（%1）；作业继续运行，下一次镜像会再试。</translation>
    </message>
    <message numerus="yes">
        <source>No process drives run %1; it still holds %n machine(s): terminate them in Instances (%2).</source>
        <translation>
            <numerusform>没有进程驱动运行 %1；它仍占用 %n 台机器：请在“实例”中终止它们（%2）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Results of run %1 in %2.</source>
        <translation>运行 %1 的结果在 %2。</translation>
    </message>
    <message>
        <source>Run %1: the results could not come home (%2).</source>
        <translation>运行 %1：结果未能取回本机（%2）。</translation>
    </message>
</context>
<context>
    <name>gantry::schema</name>
    <message>
        <source>%1 was written by a newer Gantry (format %2; this one reads up to format %3) and was left unchanged. Upgrade Gantry, or move the file away to start without it.</source>
        <translation>%1 由更新版本的 Gantry 写入（格式 %2；当前版本最多读取格式 %3），已保持原样未做改动。请升级 Gantry，或将该文件移走后在没有它的情况下启动。</translation>
    </message>
    <message>
        <source>%1 is damaged and could not be kept aside as %2; move it away by hand, then try again.</source>
        <translation>%1 已损坏，且无法另存为 %2；请手动将其移走后重试。</translation>
    </message>
</context>
<context>
    <name>gantry::ssh::Connection</name>
    <message>
        <source>connection to %1 lost; reconnect when the machine is reachable again</source>
        <translation>与 %1 的连接已断开；请在机器可访问后重新连接</translation>
    </message>
</context>
<context>
    <name>gantry::sshconfig</name>
    <message>
        <source>&quot;%1&quot; cannot be a Host alias</source>
        <translation>“%1”不能用作 Host 别名</translation>
    </message>
    <message>
        <source>user &quot;%1&quot; contains &apos;%&apos;</source>
        <translation>用户“%1”包含 &apos;%&apos;</translation>
    </message>
    <message>
        <source>ProxyJump &quot;%1&quot; lists several hops</source>
        <translation>ProxyJump“%1”列出了多个跳板</translation>
    </message>
    <message>
        <source>Gantry will not write host &quot;%1&quot; into an ssh config: %2. Fix or remove that host (gantry-cli hosts remove NAME), then sync again.</source>
        <translation>Gantry 不会将主机“%1”写入 ssh 配置：%2。请修正或移除该主机（gantry-cli hosts remove NAME），然后再次同步。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Cannot save a backup of %1 to %2; nothing was changed.</source>
        <translation>无法将 %1 备份到 %2；未做任何更改。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>No terminal emulator found (tried $TERMINAL, x-terminal-emulator, gnome-terminal, konsole, xterm…). Run this in a terminal instead: %1</source>
        <translation>未找到终端模拟器（已尝试 $TERMINAL、x-terminal-emulator、gnome-terminal、konsole、xterm…）。请改为在终端中运行：%1</translation>
    </message>
    <message>
        <source>Could not start %1. Run this in a terminal instead: %2</source>
        <translation>无法启动 %1。请改为在终端中运行：%2</translation>
    </message>
</context>
<context>
    <name>gantry::storage</name>
    <message>
        <source>No storage is called &quot;%1&quot;: see gantry-cli storage list, or add it with gantry-cli storage add.</source>
        <translation>没有名为“%1”的存储：请查看 gantry-cli storage list，或用 gantry-cli storage add 添加。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a storage: use up to 63 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;.</source>
        <translation>“%1”不能作为存储名称：请使用最多 63 个字母、数字、“.”、“_”或“-”。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is damaged (%2): fix or delete it, then add the storage again.</source>
        <translation>%1 已损坏（%2）：请修复或删除它，然后重新添加存储。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a bucket name: give the bucket alone, without slashes.</source>
        <translation>“%1”不是存储桶名称：只需给出存储桶名，不要带斜杠。</translation>
    </message>
    <message>
        <source>A storage is already called &quot;%1&quot;: remove it first (gantry-cli storage remove %1) or choose another name.</source>
        <translation>已有名为“%1”的存储：请先删除它（gantry-cli storage remove %1），或换一个名称。</translation>
    </message>
    <message>
        <source>Storage &quot;%1&quot; takes its keys from the environment: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys).</source>
        <translation>存储“%1”从环境变量读取密钥：请设置 AWS_ACCESS_KEY_ID 和 AWS_SECRET_ACCESS_KEY（临时密钥还需 AWS_SESSION_TOKEN）。</translation>
    </message>
    <message>
        <source>The keys of storage &quot;%1&quot; are not in the keychain any more: remove it and add it again.</source>
        <translation>存储“%1”的密钥已不在钥匙串中：请删除该存储后重新添加。</translation>
    </message>
    <message>
        <source>The copy script on the machine answered &quot;%1&quot;; run the copy again.</source>
        <translation>机器上的复制脚本回复了“%1”；请重新运行复制。</translation>
    </message>
    <message>
        <source>curl is not installed on %1: install it (apt-get install -y curl) and run the copy again.</source>
        <translation>%1 上没有安装 curl：请安装（apt-get install -y curl）后重新运行复制。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; holds a line break; Gantry does not copy such names.</source>
        <translation>“%1”包含换行符；Gantry 不复制这样的名称。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>The copy script on %1 ended early; run the copy again.</source>
        <translation>%1 上的复制脚本提前结束；请重新运行复制。</translation>
    </message>
    <message>
        <source>The machine could not write %1 (%2): is its disk full? Free space (df -h) and run the copy again.</source>
        <translation>机器无法写入 %1（%2）：磁盘是否已满？请释放空间（df -h）后重新运行复制。</translation>
    </message>
    <message>
        <source>The machine&apos;s curl could not reach the storage (%1): can %2 reach %3?</source>
        <translation>机器上的 curl 无法连接存储（%1）：%2 能否访问 %3？</translation>
    </message>
    <message>
        <source>%1 did not match the object&apos;s %2 after the copy; nothing was kept. Run the copy again.</source>
        <translation>复制后 %1 与对象的 %2 不符；未保留任何内容。请重新运行复制。</translation>
    </message>
    <message>
        <source>There is no file %1 to copy.</source>
        <translation>没有可复制的文件 %1。</translation>
    </message>
    <message>
        <source>More than %1 files under %2: copy a smaller folder.</source>
        <translation>%2 下有超过 %1 个文件：请复制更小的文件夹。</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>The storage endpoint is a server, not a path (got &quot;%1&quot;): give https://host[:port] and the bucket with --bucket.</source>
        <translation>存储端点应是服务器而非路径（收到“%1”）：请给出 https://host[:port]，并用 --bucket 指定存储桶。</translation>
    </message>
    <message>
        <source>More than %1 objects under &quot;%2&quot;: copy a narrower prefix.</source>
        <translation>“%2”下有超过 %1 个对象：请复制更窄的前缀。</translation>
    </message>
    <message>
        <source>The storage server repeated a listing page; stopped listing.</source>
        <translation>存储服务器重复返回了同一列表页；已停止列出。</translation>
    </message>
    <message>
        <source>Presigned URLs from Gantry live at most an hour (asked for %1 s).</source>
        <translation>Gantry 生成的预签名 URL 最长有效一小时（请求了 %1 秒）。</translation>
    </message>
    <message>
        <source>%1 does not know the access key %2 (InvalidAccessKeyId): check the key ID, then add the storage again.</source>
        <translation>%1 不认识访问密钥 %2（InvalidAccessKeyId）：请检查密钥 ID，然后重新添加存储。</translation>
    </message>
    <message>
        <source>The secret key does not match the access key %1 (SignatureDoesNotMatch): check the secret key, then add the storage again.</source>
        <translation>私有密钥与访问密钥 %1 不匹配（SignatureDoesNotMatch）：请检查私有密钥，然后重新添加存储。</translation>
    </message>
    <message>
        <source>The session token has expired (%1): get new temporary credentials and set AWS_SESSION_TOKEN again.</source>
        <translation>会话令牌已过期（%1）：请获取新的临时凭证并重新设置 AWS_SESSION_TOKEN。</translation>
    </message>
    <message>
        <source>This computer&apos;s clock is more than 15 minutes off the storage server&apos;s (RequestTimeTooSkewed): set the clock right and retry.</source>
        <translation>本机时钟与存储服务器相差超过 15 分钟（RequestTimeTooSkewed）：请校准时钟后重试。</translation>
    </message>
    <message>
        <source>A presigned URL expired before the machine used it: run the copy again (each URL lives at most an hour).</source>
        <translation>预签名 URL 在机器使用前已过期：请重新运行复制（每个 URL 最长有效一小时）。</translation>
    </message>
    <message>
        <source>Access to bucket %1 was denied (AccessDenied): give the keys permission to list, read and write it, or use other keys.</source>
        <translation>访问存储桶 %1 被拒绝（AccessDenied）：请为密钥授予列出、读取和写入权限，或改用其他密钥。</translation>
    </message>
    <message>
        <source>There is no bucket %1 at %2 (NoSuchBucket): check --bucket and --endpoint.</source>
        <translation>%2 上没有存储桶 %1（NoSuchBucket）：请检查 --bucket 和 --endpoint。</translation>
    </message>
    <message>
        <source>The object arrived damaged at the storage server (%1): run the copy again.</source>
        <translation>对象到达存储服务器时已损坏（%1）：请重新运行复制。</translation>
    </message>
    <message>
        <source>The storage server refused: %1 (%2).</source>
        <translation>存储服务器拒绝了请求：%1（%2）。</translation>
    </message>
    <message>
        <source>Bucket %1 is in region %2, not %3: add the storage again with --region %2.</source>
        <translation>存储桶 %1 位于区域 %2，而不是 %3：请使用 --region %2 重新添加存储。</translation>
    </message>
    <message>
        <source>Bucket %1 refused the request (HTTP 403): check the keys and their permissions on it.</source>
        <translation>存储桶 %1 拒绝了请求（HTTP 403）：请检查密钥及其对该存储桶的权限。</translation>
    </message>
    <message>
        <source>The storage server answered HTTP %1: try again later.</source>
        <translation>存储服务器返回 HTTP %1：请稍后再试。</translation>
    </message>
    <message>
        <source>The storage server&apos;s answer was too large to read; is %1 an S3-compatible endpoint?</source>
        <translation>存储服务器的回复过大，无法读取；%1 是否为 S3 兼容端点？</translation>
    </message>
    <message>
        <source>Cannot reach %1: %2. Check --endpoint and the network.</source>
        <translation>无法连接 %1：%2。请检查 --endpoint 和网络。</translation>
    </message>
    <message>
        <source>The storage server&apos;s listing could not be read (%1); is the endpoint an S3-compatible API?</source>
        <translation>无法读取存储服务器返回的列表（%1）；该端点是否为 S3 兼容 API？</translation>
    </message>
    <message>
        <source>A presigned URL lives from 1 second to 7 days (asked for %1 s).</source>
        <translation>预签名 URL 的有效期为 1 秒到 7 天（请求了 %1 秒）。</translation>
    </message>
    <message>
        <source>Could not write or read %1 (%2): is the disk full?</source>
        <translation>无法写入或读取 %1（%2）：磁盘是否已满？</translation>
    </message>
    <message>
        <source>%1 is a folder: end the destination with / to copy into it.</source>
        <translation>%1 是文件夹：若要复制到其中，请在目标末尾加上 /。</translation>
    </message>
    <message>
        <source>%1 did not start a multipart upload of %2; try again.</source>
        <translation>%1 没有开始 %2 的分段上传；请重试。</translation>
    </message>
    <message>
        <source>Nothing to copy under s3://%1/%2: check the prefix.</source>
        <translation>s3://%1/%2 下没有可复制的内容：请检查前缀。</translation>
    </message>
    <message>
        <source>There is no %1 to copy.</source>
        <translation>没有可复制的 %1。</translation>
    </message>
    <message>
        <source>%1 is a folder: copy it with everything in it (cp -r).</source>
        <translation>%1 是文件夹：请连同其中所有内容一起复制（cp -r）。</translation>
    </message>
    <message>
        <source>There is no object %1 in bucket %2: the Storage panel lists what is there (gantry-cli storage ls).</source>
        <translation>存储桶 %2 中没有对象 %1：“存储”面板会列出已有内容（gantry-cli storage ls）。</translation>
    </message>
    <message>
        <source>Cannot write in %1: %2.</source>
        <translation>无法在 %1 中写入：%2。</translation>
    </message>
    <message>
        <source>%1 arrived different from its source (SHA-256); run the copy again.</source>
        <translation>%1 与源文件不一致（SHA-256）；请重新复制。</translation>
    </message>
    <message>
        <source>The target&apos;s host key could not be read back.</source>
        <translation>无法读回目标机器的主机密钥。</translation>
    </message>
    <message>
        <source>Cannot check %1 on %2: %3</source>
        <translation>无法在 %2 上校验 %1：%3</translation>
    </message>
    <message>
        <source>Cannot authorise the copy on %1: %2</source>
        <translation>无法在 %1 上为这次复制授权：%2</translation>
    </message>
    <message>
        <source>%1 could not send to %2 itself: %3</source>
        <translation>%1 无法直接发送到 %2：%3</translation>
    </message>
    <message>
        <source>The copy&apos;s key could not be removed from %1 (%2): remove the line ending in %3 from its ~/.ssh/authorized_keys.</source>
        <translation>无法从 %1 移除这次复制的密钥（%2）：请从其 ~/.ssh/authorized_keys 中删除以 %3 结尾的那一行。</translation>
    </message>
    <message>
        <source>The copy was stopped.</source>
        <translation>复制已停止。</translation>
    </message>
    <message>
        <source>tar failed: %1</source>
        <translation>tar 失败：%1</translation>
    </message>
    <message>
        <source>The %1 received are kept in %2: run the same copy again to go on from there.</source>
        <translation>已收到的 %1 保留在 %2 中：再次运行同一复制即可从那里继续。</translation>
    </message>
    <message>
        <source>What arrived is kept in %1 on the machine: run the same copy again to go on from there.</source>
        <translation>已到达的部分保留在机器上的 %1 中：再次运行同一复制即可从那里继续。</translation>
    </message>
    <message>
        <source>The parts already sent stay at the storage, unseen under %1: run the same copy again to go on from them.</source>
        <translation>已发送的分片保留在存储中（在 %1 下尚不可见）：再次运行同一复制即可从这些分片继续。</translation>
    </message>
    <message>
        <source>%1 is larger than this storage takes in one request (EntityTooLarge): Gantry sends files over 64 MiB in parts; check the storage&apos;s own limits on object size.</source>
        <translation>%1 超出该存储单次请求可接受的大小（EntityTooLarge）：Gantry 会将超过 64 MiB 的文件分片发送；请查看该存储自身的对象大小限制。</translation>
    </message>
    <message>
        <source>Copying</source>
        <translation>复制中</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>gantry::sync</name>
    <message>
        <source>Cannot read the local folder %1: %2. Fix its permissions or add it to .gantryignore.</source>
        <translation>无法读取本地文件夹 %1：%2。请修正其权限，或将其加入 .gantryignore。</translation>
    </message>
    <message>
        <source>Cannot read the local file %1: permission denied. Fix its permissions or add it to .gantryignore.</source>
        <translation>无法读取本地文件 %1：权限不足。请修正其权限，或将其加入 .gantryignore。</translation>
    </message>
    <message>
        <source>Skipped %1: not a regular file (device, socket or pipe).</source>
        <translation>已跳过 %1：不是普通文件（设备、套接字或管道）。</translation>
    </message>
    <message>
        <source>The local folder %1 does not exist. Check the path.</source>
        <translation>本地文件夹 %1 不存在。请检查路径。</translation>
    </message>
    <message>
        <source>%1 is not a folder: sync sends a folder&apos;s content. Give the folder that holds it.</source>
        <translation>%1 不是文件夹：同步发送的是文件夹的内容。请指定包含它的文件夹。</translation>
    </message>
    <message>
        <source>%1 did not list %2 (it needs a POSIX shell and GNU find). Check that `find --version` works there.</source>
        <translation>%1 未能列出 %2（需要 POSIX shell 和 GNU find）。请确认该机器上 `find --version` 可以运行。</translation>
    </message>
    <message>
        <source>Listing %1 on %2 failed: %3</source>
        <translation>列出 %2 上的 %1 失败：%3</translation>
    </message>
    <message>
        <source>Checksumming files in %1 on %2 failed: %3. Run without --checksum to compare sizes and times.</source>
        <translation>计算 %2 上 %1 中文件的校验和失败：%3。去掉 --checksum 运行，改为比较大小和时间。</translation>
    </message>
    <message>
        <source>Deleting in %1 on %2 failed: %3. Fix the permissions there, or run without --delete.</source>
        <translation>在 %2 上的 %1 中删除失败：%3。请修正那里的权限，或去掉 --delete 运行。</translation>
    </message>
    <message>
        <source>Setting times in %1 on %2 failed: %3. The files are there; the next sync sends them again.</source>
        <translation>设置 %2 上 %1 中文件的时间失败：%3。文件已在那里；下次同步会重新发送它们。</translation>
    </message>
    <message>
        <source>The connection to %1 dropped; trying again in %2 s.</source>
        <translation>与 %1 的连接已断开；%2 秒后重试。</translation>
    </message>
    <message>
        <source>%1 Files kept changing while they were sent; run the sync again once they settle.</source>
        <translation>%1 文件在发送过程中一直在变化；请等它们稳定后再次同步。</translation>
    </message>
    <message>
        <source>Some files changed while they were sent; sending them again.</source>
        <translation>部分文件在发送过程中发生了变化；正在重新发送。</translation>
    </message>
    <message>
        <source>%1 is a folder on one side and a file on the other (%2 on %3). Rename or remove one of them, then sync again.</source>
        <translation>%1 在一侧是文件夹、在另一侧是文件（%3 上的 %2）。请重命名或删除其中之一，然后再次同步。</translation>
    </message>
    <message>
        <source>%1 on %2 is a file, not a folder. Give a folder to sync into (it is created when missing).</source>
        <translation>%2 上的 %1 是文件而不是文件夹。请指定要同步到的文件夹（不存在时会自动创建）。</translation>
    </message>
    <message>
        <source>%1 has no tar or sha256sum, which sync needs. Install tar and coreutils there, or use gantry-cli upload.</source>
        <translation>%1 上没有同步所需的 tar 或 sha256sum。请在该机器上安装 tar 和 coreutils，或改用 gantry-cli upload。</translation>
    </message>
    <message>
        <source>Cannot save the sync manifest %1: %2. Check the space and permissions of the config folder.</source>
        <translation>无法保存同步清单 %1：%2。请检查配置文件夹的空间和权限。</translation>
    </message>
    <message>
        <source>Cannot read the sync folder pairs in %1: %2. Check its permissions.</source>
        <translation>无法读取 %1 中的同步文件夹配对：%2。请检查其权限。</translation>
    </message>
    <message>
        <source>The sync folder pairs in %1 are not valid JSON (%2). Remove the file to start over.</source>
        <translation>%1 中的同步文件夹配对不是有效的 JSON（%2）。删除该文件即可重新开始。</translation>
    </message>
    <message>
        <source>Cannot save the sync folder pairs to %1: %2. Check that the config folder is writable.</source>
        <translation>无法将同步文件夹配对保存到 %1：%2。请检查配置文件夹是否可写。</translation>
    </message>
    <message>
        <source>Cannot watch %1 for changes on this system. Run the sync without --watch when files change.</source>
        <translation>此系统上无法监视 %1 的变化。文件变化时请不带 --watch 运行同步。</translation>
    </message>
    <message>
        <source>No remembered sync pair %1 → %2:%3. The Files tab of %2 lists them (gantry-cli sync --list %2).</source>
        <translation>没有记住的同步配对 %1 → %2:%3。%2 的“文件”页会列出已记住的配对（gantry-cli sync --list %2）。</translation>
    </message>
    <message>
        <source>Listing %1 on %2 sent more than Gantry reads for one folder.</source>
        <translation>列出 %2 上的 %1 时，返回的内容超过了 Gantry 对单个文件夹读取的上限。</translation>
    </message>
    <message>
        <source>Cannot make %1 for held connections: %2. Check XDG_RUNTIME_DIR.</source>
        <translation>无法为保持的连接创建 %1：%2。请检查 XDG_RUNTIME_DIR。</translation>
    </message>
    <message>
        <source>%1 is not a folder of yours, so no connection is held there; remove it, or set XDG_RUNTIME_DIR to a private folder.</source>
        <translation>%1 不是属于你的文件夹，因此不会在那里保持连接；请删除它，或把 XDG_RUNTIME_DIR 设为私有文件夹。</translation>
    </message>
    <message>
        <source>%1 is open to other users, so no connection is held there; run chmod 700 on it.</source>
        <translation>%1 对其他用户开放，因此不会在那里保持连接；请对它执行 chmod 700。</translation>
    </message>
    <message>
        <source>The folder for held connections, %1, has too long a path for a socket; set XDG_RUNTIME_DIR to a shorter one.</source>
        <translation>保持连接所用的文件夹 %1 路径过长，无法用作套接字；请把 XDG_RUNTIME_DIR 设为更短的路径。</translation>
    </message>
    <message>
        <source>Another process holds the connection for this sync.</source>
        <translation>另一个进程正在为此同步保持连接。</translation>
    </message>
    <message>
        <source>Cannot listen on %1: %2.</source>
        <translation>无法在 %1 上监听：%2。</translation>
    </message>
    <message>
        <source>Sync stopped; the connection held for it ends.</source>
        <translation>同步已停止；为它保持的连接随之结束。</translation>
    </message>
    <message>
        <source>The process holding the connection for this sync ended mid-round; run the sync again.</source>
        <translation>为此同步保持连接的进程在本轮中途结束；请再次运行同步。</translation>
    </message>
    <message>
        <source>Cannot start the process that holds the connection: %1.</source>
        <translation>无法启动保持连接的进程：%1。</translation>
    </message>
    <message>
        <source>%1 answered an SFTP request that was never sent while %2 was listed.</source>
        <translation>列出 %2 时，%1 回应了一个从未发出的 SFTP 请求。</translation>
    </message>
    <message>
        <source>Listing</source>
        <translation>列出</translation>
    </message>
    <message>
        <source>%1 gave no handle for the folder %2.</source>
        <translation>%1 没有为文件夹 %2 返回句柄。</translation>
    </message>
    <message>
        <source>%1 gave an invalid handle for the folder %2.</source>
        <translation>%1 为文件夹 %2 返回了无效的句柄。</translation>
    </message>
</context>
<context>
    <name>gantry::sync::SyncService</name>
    <message>
        <source>No saved host named %1; add it again to continue.</source>
        <translation>没有名为 %1 的已保存主机；请重新添加后继续。</translation>
    </message>
</context>
<context>
    <name>gantry::transfer</name>
    <message>
        <source>The remote unpacking shell sent more than %1 of output for one batch; the upload stopped.</source>
        <translation>远程解包 shell 为一个批次输出了超过 %1 的内容；上传已停止。</translation>
    </message>
    <message>
        <source>The remote unpacking shell stopped before it reported on a batch. Retry to resume from the last verified batch.</source>
        <translation>远程解包 shell 在报告一个批次的结果之前就停止了。重试即可从最后一个已验证的批次继续。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>%1 on %2 became shorter while it was being downloaded. Retry to download the new version.</source>
        <translation>%2 上的 %1 在下载过程中变短了。请重试以下载新版本。</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>Reading %1 failed.</source>
        <translation>读取 %1 失败。</translation>
    </message>
    <message>
        <source>Reading %1 returned no data.</source>
        <translation>读取 %1 未返回任何数据。</translation>
    </message>
    <message>
        <source>%1 changed on the host since the interrupted download; starting again.</source>
        <translation>下载中断后，主机上的 %1 已发生变化；将重新开始下载。</translation>
    </message>
    <message>
        <source>Integrity check failed for %1: SHA-256 is %2 here and %3 on %4. The damaged copy was removed; retry to download it again.</source>
        <translation>%1 完整性校验失败：本地 SHA-256 为 %2，%4 上为 %3。已删除损坏的副本；请重试以重新下载。</translation>
    </message>
    <message>
        <source>Not verified: %1</source>
        <translation>未验证：%1</translation>
    </message>
    <message>
        <source>%1 appeared during the download; the download is kept as %2.</source>
        <translation>下载期间出现了 %1；下载的文件已另存为 %2。</translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2.</source>
        <translation>无法将 %1 重命名为 %2。</translation>
    </message>
    <message>
        <source>%1 on %2 is not a regular file.</source>
        <translation>%2 上的 %1 不是普通文件。</translation>
    </message>
    <message>
        <source>Cannot read the local file %1: %2.</source>
        <translation>无法读取本地文件 %1：%2。</translation>
    </message>
    <message>
        <source>%1 became shorter while it was being uploaded. Retry to upload the new version from the start.</source>
        <translation>%1 在上传过程中变短了。请重试，从头上传新版本。</translation>
    </message>
    <message>
        <source>Writing</source>
        <translation>写入</translation>
    </message>
    <message>
        <source>The local file %1 does not exist.</source>
        <translation>本地文件 %1 不存在。</translation>
    </message>
    <message>
        <source>Cannot read the local file %1: %2. Check its permissions.</source>
        <translation>无法读取本地文件 %1：%2。请检查其权限。</translation>
    </message>
    <message>
        <source>%1 changed since the interrupted upload; starting it again from zero.</source>
        <translation>%1 在上传中断后已发生变化；将从头重新上传。</translation>
    </message>
    <message>
        <source>Not enough space on %1 for %2: %3 free in %4, %5 needed. Free some space (or pick another directory) and retry.</source>
        <translation>%1 上的空间不足以存放 %2：%4 中剩余 %3，需要 %5。请清理一些空间（或选择其他目录）后重试。</translation>
    </message>
    <message>
        <source>Integrity check failed for %1: SHA-256 of %2 on %3 is %4, expected %5. The damaged copy was removed; retry to upload it again.</source>
        <translation>%1 完整性校验失败：%3 上 %2 的 SHA-256 为 %4，应为 %5。已删除损坏的副本；请重试以重新上传。</translation>
    </message>
    <message>
        <source>the file</source>
        <translation>该文件</translation>
    </message>
    <message>
        <source>bytes %1–%2</source>
        <translation>第 %1–%2 字节</translation>
    </message>
    <message>
        <source>%1 changed while it was being uploaded. Retry to upload the new version from the start.</source>
        <translation>%1 在上传过程中发生了变化。请重试，从头上传新版本。</translation>
    </message>
    <message>
        <source>%1 appeared on %2 during the upload; the upload is kept as %3.</source>
        <translation>上传期间 %2 上出现了 %1；上传的文件已另存为 %3。</translation>
    </message>
    <message>
        <source>Upload of %1 stopped before the end; retry to continue.</source>
        <translation>%1 的上传未完成就中断了；重试即可继续。</translation>
    </message>
    <message>
        <source>The local folder %1 does not exist.</source>
        <translation>本地文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>Cannot read the local folder %1: permission denied.</source>
        <translation>无法读取本地文件夹 %1：权限被拒绝。</translation>
    </message>
    <message>
        <source>Skipped symlink %1 (symlinks are not followed).</source>
        <translation>已跳过符号链接 %1（不跟随符号链接）。</translation>
    </message>
    <message>
        <source>Skipped broken symlink %1.</source>
        <translation>已跳过失效的符号链接 %1。</translation>
    </message>
    <message>
        <source>Skipped symlink to a folder %1 (folder links are not followed, to avoid loops).</source>
        <translation>已跳过指向文件夹的符号链接 %1（为避免循环，不跟随文件夹链接）。</translation>
    </message>
    <message>
        <source>Cannot read the local folder %1: permission denied. Fix its permissions or leave it out.</source>
        <translation>无法读取本地文件夹 %1：权限被拒绝。请修正其权限，或将其排除。</translation>
    </message>
    <message>
        <source>Skipped %1: not a regular file (device, socket or pipe).</source>
        <translation>已跳过 %1：不是普通文件（设备、套接字或管道）。</translation>
    </message>
    <message>
        <source>Cannot read the local file %1: permission denied. Fix its permissions or leave it out.</source>
        <translation>无法读取本地文件 %1：权限被拒绝。请修正其权限，或将其排除。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a file name: give a name without &apos;/&apos; (the entry stays in its folder).</source>
        <translation>“%1”不是文件名：请给出不含“/”的名称（条目仍留在原文件夹中）。</translation>
    </message>
    <message>
        <source>%1 already exists on %2; pick another name or delete it first.</source>
        <translation>%2 上已存在 %1；请换一个名称，或先将其删除。</translation>
    </message>
    <message>
        <source>Cannot count the files in %1 on %2 (find, tr and wc are needed there): %3</source>
        <translation>无法统计 %2 上 %1 中的文件（该机器上需要 find、tr 和 wc）：%3</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2 is a folder with %n entries; confirm a recursive delete (gantry-cli rm -r) to delete it with everything in it.</source>
        <translation>
            <numerusform>%2 上的 %1 是包含 %n 个条目的文件夹；请确认递归删除（gantry-cli rm -r），以将其连同其中所有内容一并删除。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot delete all of %1 on %2: %3</source>
        <translation>无法完全删除 %2 上的 %1：%3</translation>
    </message>
    <message>
        <source>The disk on %1 is full while writing into %2 (about %3 still to send). Files already verified are kept; free some space and retry to continue.</source>
        <translation>写入 %2 时 %1 上的磁盘已满（还有约 %3 待发送）。已验证的文件会保留；请清理一些空间后重试以继续。</translation>
    </message>
    <message>
        <source>Permission denied writing into %1 on %2. Pick a directory the SSH user can write.</source>
        <translation>无权写入 %2 上的 %1。请选择 SSH 用户可写入的目录。</translation>
    </message>
    <message>
        <source>Unpacking into %1 on %2 failed: %3</source>
        <translation>解包到 %2 上的 %1 失败：%3</translation>
    </message>
    <message>
        <source>%1 changed while it was being uploaded (it became shorter). Retry to upload the new version.</source>
        <translation>%1 在上传过程中发生了变化（变短了）。请重试以上传新版本。</translation>
    </message>
    <message>
        <source>%1 changed while it was being uploaded (it grew). Retry to upload the new version.</source>
        <translation>%1 在上传过程中发生了变化（变长了）。请重试以上传新版本。</translation>
    </message>
    <message>
        <source>Connection to %1 lost during the upload. It resumes from the last verified batch.</source>
        <translation>上传过程中与 %1 的连接断开。将从最后一个已验证的批次继续。</translation>
    </message>
    <message numerus="yes">
        <source>Integrity check failed on %1 for %n file(s) in %2, e.g. %3. Retry to send them again.</source>
        <translation>
            <numerusform>%1 上 %2 中有 %n 个文件完整性校验失败，例如 %3。请重试以重新发送。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 sent &quot;%2&quot; for %3, which would land outside %4; the download was stopped and nothing was written there. Check the host (it may be compromised) before fetching from it again.</source>
        <translation>%1 为 %3 发送了“%2”，它会落在 %4 之外；下载已停止，没有向那里写入任何内容。再次从该主机下载之前，请先检查它（它可能已被入侵）。</translation>
    </message>
    <message>
        <source>%1 leads outside %2 through a symbolic link; nothing was written there. Remove the link or pick another destination and retry.</source>
        <translation>%1 通过符号链接指向 %2 之外；没有向那里写入任何内容。请删除该链接或另选目标位置后重试。</translation>
    </message>
    <message>
        <source>Downloading %1 from %2 broke off: %3. Retry to fetch it again.</source>
        <translation>从 %2 下载 %1 时中断：%3。请重试以重新获取。</translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2: %3. Check the folder&apos;s permissions and retry.</source>
        <translation>无法将 %1 重命名为 %2：%3。请检查该文件夹的权限后重试。</translation>
    </message>
    <message>
        <source>Skipped %1: not a regular file.</source>
        <translation>已跳过 %1：不是普通文件。</translation>
    </message>
    <message>
        <source>Downloading %1 from %2 broke off. Retry to fetch it again.</source>
        <translation>从 %2 下载 %1 时中断。请重试以重新获取。</translation>
    </message>
    <message>
        <source>%1 reported: %2</source>
        <translation>%1 报告：%2</translation>
    </message>
    <message>
        <source>Cannot start fetching %1 from %2. Retry to fetch it again.</source>
        <translation>无法开始从 %2 获取 %1。请重试以再次获取。</translation>
    </message>
    <message>
        <source>%1 already exists%2. Choose what to do: overwrite, resume, skip or rename (CLI: --on-conflict).</source>
        <translation>%1 已存在%2。请选择处理方式：覆盖、续传、跳过或重命名（CLI：--on-conflict）。</translation>
    </message>
    <message>
        <source>%1 on %2 is a file, not a directory.</source>
        <translation>%2 上的 %1 是文件，而不是目录。</translation>
    </message>
    <message>
        <source>The destination folder %1 does not exist on %2. Create it first, or end the destination with &apos;/&apos; to have it created.</source>
        <translation>%2 上不存在目标文件夹 %1。请先创建它，或在目标路径末尾加上 &apos;/&apos; 以自动创建。</translation>
    </message>
    <message>
        <source>%1 on %2 exists and is a %3; the source is a %4.</source>
        <translation>%2 上的 %1 已存在，且是%3；而源是%4。</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation>（位于 %1）</translation>
    </message>
    <message>
        <source>%1 exists on %2; skipped.</source>
        <translation>%2 上已存在 %1；已跳过。</translation>
    </message>
    <message>
        <source>%1 on %2 is already identical.</source>
        <translation>%2 上的 %1 内容已一致。</translation>
    </message>
    <message>
        <source>%1 exists on %2 and differs from %3; resume cannot continue it. Choose overwrite or rename.</source>
        <translation>%2 上已存在 %1，且与 %3 不同；无法续传。请选择覆盖或重命名。</translation>
    </message>
    <message>
        <source>%1 is a file, not a folder.</source>
        <translation>%1 是文件，而不是文件夹。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>%1 exists; skipped.</source>
        <translation>%1 已存在；已跳过。</translation>
    </message>
    <message>
        <source>%1 is already identical.</source>
        <translation>%1 内容已一致。</translation>
    </message>
    <message>
        <source>%1 exists and differs from %2 on %3; choose overwrite or rename.</source>
        <translation>%1 已存在，且与 %3 上的 %2 不同；请选择覆盖或重命名。</translation>
    </message>
    <message>
        <source>%1 is a broken symlink.</source>
        <translation>%1 是失效的符号链接。</translation>
    </message>
    <message>
        <source>%1 on %2 does not end in a file or folder name. Name it directly (e.g. /data/run1 instead of /data/run1/x/..) and retry.</source>
        <translation>%2 上的 %1 没有以文件或文件夹名结尾。请直接写出其名称（例如用 /data/run1 而不是 /data/run1/x/..）后重试。</translation>
    </message>
    <message>
        <source>Cannot list %1 on %2: %3</source>
        <translation>无法列出 %2 上的 %1：%3</translation>
    </message>
    <message>
        <source>%1 already exists here (and differs). Choose overwrite, skip, resume or rename.</source>
        <translation>本地已存在 %1（且内容不同）。请选择覆盖、跳过、续传或重命名。</translation>
    </message>
    <message numerus="yes">
        <source>Integrity check failed for %n file(s), e.g. %1 (changed on the host while downloading?). Retry to fetch them again.</source>
        <translation>
            <numerusform>%n 个文件完整性校验失败，例如 %1（下载期间主机上的文件被修改了？）。请重试以重新获取。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) listed on the host did not arrive; retry to fetch them.</source>
        <translation>
            <numerusform>主机上列出的 %n 个文件未送达；请重试以下载它们。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) arrived without a checksum from the host and are not verified.</source>
        <translation>
            <numerusform>%n 个文件到达时主机未提供校验和，未经验证。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 does not name a folder on %2 (it ends in &apos;.&apos;, &apos;..&apos; or &apos;/&apos;). Name the folder itself, e.g. /data/run1, and retry.</source>
        <translation>%1 不是 %2 上的文件夹名（它以“.”、“..”或“/”结尾）。请直接写出文件夹本身，例如 /data/run1，然后重试。</translation>
    </message>
    <message>
        <source>Cannot create the local folder %1.</source>
        <translation>无法创建本地文件夹 %1。</translation>
    </message>
    <message>
        <source>%1 changed since the interrupted upload; checking every file again.</source>
        <translation>%1 在上传中断后已发生变化；将重新检查每个文件。</translation>
    </message>
    <message>
        <source>%1 already exists on %2 (and differs). Choose overwrite, skip, resume or rename.</source>
        <translation>%2 上已存在 %1（且内容不同）。请选择覆盖、跳过、续传或重命名。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) already on the host were left as they are.</source>
        <translation>
            <numerusform>主机上已有的 %n 个文件保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 runs no tar; files were sent one by one over SFTP.</source>
        <translation>%1 上没有 tar；文件已通过 SFTP 逐个发送。</translation>
    </message>
    <message>
        <source>Cannot write the resume journal %1: %2.</source>
        <translation>无法写入续传日志 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is a symbolic link; a download never writes through one. Remove the link or pick another destination and retry.</source>
        <translation>%1 是符号链接；下载从不通过符号链接写入。请删除该链接或另选目标位置后重试。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2. Free some space locally and retry; the download continues where it stopped.</source>
        <translation>无法写入 %1：%2。请清理一些本地空间后重试；下载会从中断处续传。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2. Check the folder&apos;s permissions and retry.</source>
        <translation>无法写入 %1：%2。请检查该文件夹的权限后重试。</translation>
    </message>
    <message>
        <source>Not enough space here for %1: %2 free in %3, %4 needed. Free some space (or pick another folder) and retry.</source>
        <translation>本地空间不足，无法保存 %1：%3 中剩余 %2，需要 %4。请清理一些空间（或另选文件夹）后重试。</translation>
    </message>
    <message>
        <source>Another transfer to %1 is running. Wait for it to finish (or cancel it), or pick another destination, and retry.</source>
        <translation>另一个到 %1 的传输正在进行。请等待它完成（或取消它），或另选目标位置后重试。</translation>
    </message>
    <message>
        <source>Cannot create the lock for %1 in %2. Check that folder&apos;s permissions and retry.</source>
        <translation>无法在 %2 中为 %1 创建锁文件。请检查该文件夹的权限后重试。</translation>
    </message>
    <message>
        <source>Cannot compute SHA-256 of %1 on the host: %2</source>
        <translation>无法在主机上计算 %1 的 SHA-256：%2</translation>
    </message>
    <message>
        <source>Cannot check the chunks of %1 on the host: %2</source>
        <translation>无法在主机上检查 %1 的分块：%2</translation>
    </message>
    <message>
        <source>The disk on %1 is full: %2 free in %3, %4 more needed. The partial file %5 is kept; free some space and retry to continue where it stopped.</source>
        <translation>%1 上的磁盘已满：%3 中剩余 %2，还需要 %4。已保留不完整的文件 %5；请清理一些空间后重试，即可从中断处继续。</translation>
    </message>
    <message>
        <source>%1 listed more than %2 entries in %3; the listing was stopped. If the folder really holds that many, raise the limit (gantry-cli: --max-entries).</source>
        <translation>%1 在 %3 中列出了超过 %2 个条目；列表已停止。如果该文件夹确实有这么多条目，请提高上限（gantry-cli：--max-entries）。</translation>
    </message>
    <message>
        <source>%1 offers no SFTP service (%2). Enable the sftp Subsystem in the server&apos;s sshd_config.</source>
        <translation>%1 未提供 SFTP 服务（%2）。请在服务器的 sshd_config 中启用 sftp Subsystem。</translation>
    </message>
    <message>
        <source>Cannot open a channel to %1: %2</source>
        <translation>无法打开到 %1 的通道：%2</translation>
    </message>
    <message>
        <source>%1 answered the SFTP handshake with an unexpected message.</source>
        <translation>%1 在 SFTP 握手时返回了意外的消息。</translation>
    </message>
    <message>
        <source>Connection to %1 lost during the transfer (%2). It resumes from where it stopped once the host is reachable.</source>
        <translation>传输过程中与 %1 的连接断开（%2）。主机恢复可达后将从中断处续传。</translation>
    </message>
    <message>
        <source>the server closed the SFTP channel</source>
        <translation>服务器关闭了 SFTP 通道</translation>
    </message>
    <message>
        <source>no answer for %1 s</source>
        <translation>%1 秒无响应</translation>
    </message>
    <message>
        <source>malformed SFTP reply</source>
        <translation>SFTP 回复格式错误</translation>
    </message>
    <message>
        <source>the server answered a request that was never sent</source>
        <translation>服务器回复了一个从未发送的请求</translation>
    </message>
    <message>
        <source>%1 %2 on %3: unexpected SFTP reply.</source>
        <translation>%1 %3 上的 %2：SFTP 回复异常。</translation>
    </message>
    <message>
        <source>%1 failed: %2 does not exist on %3. Check the path.</source>
        <translation>%1失败：%3 上不存在 %2。请检查路径。</translation>
    </message>
    <message>
        <source>%1 failed: permission denied for %2 on %3. Pick a directory the SSH user can write, or fix its permissions.</source>
        <translation>%1失败：无权访问 %3 上的 %2。请选择 SSH 用户可写入的目录，或修正其权限。</translation>
    </message>
    <message>
        <source>%1: unexpected end of file %2 on %3.</source>
        <translation>%1：%3 上的文件 %2 意外结束。</translation>
    </message>
    <message>
        <source>%1 is not supported by the SFTP server on %2.</source>
        <translation>%2 上的 SFTP 服务器不支持%1。</translation>
    </message>
    <message>
        <source>%1 failed for %2 on %3: %4.</source>
        <translation>%1 %3 上的 %2 失败：%4。</translation>
    </message>
    <message>
        <source>Opening for writing</source>
        <translation>以写入方式打开</translation>
    </message>
    <message>
        <source>Opening</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Closing the file</source>
        <translation>关闭文件</translation>
    </message>
    <message>
        <source>Looking up</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Listing</source>
        <translation>列出</translation>
    </message>
    <message>
        <source>Creating the directory</source>
        <translation>创建目录</translation>
    </message>
    <message>
        <source>%1 on %2 exists and is not a directory.</source>
        <translation>%2 上的 %1 已存在且不是目录。</translation>
    </message>
    <message>
        <source>Deleting</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Removing the directory</source>
        <translation>删除目录</translation>
    </message>
    <message>
        <source>Renaming</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Resolving</source>
        <translation>解析</translation>
    </message>
    <message>
        <source>Checking free space</source>
        <translation>检查可用空间</translation>
    </message>
    <message>
        <source>Flushing</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Truncating</source>
        <translation>截断</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>No saved host named %1; add it again to continue.</source>
        <translation>没有名为 %1 的已保存主机；请重新添加后继续。</translation>
    </message>
    <message>
        <source>Paused; resumes where it stopped.</source>
        <translation>已暂停；将从中断处继续。</translation>
    </message>
    <message>
        <source>%1 is damaged; the transfer list starts empty.</source>
        <translation>%1 已损坏；传输列表将从空开始。</translation>
    </message>
    <message>
        <source>Cannot create a staging folder in %1: %2. Check the folder&apos;s permissions and free space, then retry.</source>
        <translation>无法在 %1 中创建暂存文件夹：%2。请检查该文件夹的权限和可用空间，然后重试。</translation>
    </message>
    <message>
        <source>Unpacking into %1 on %2 ended with status %3 and no message; the connection was probably lost. It resumes from the last verified batch.</source>
        <translation>在 %2 上解包到 %1 时以状态 %3 结束且没有任何消息；连接可能已断开。将从最后一个已校验的批次继续。</translation>
    </message>
    <message>
        <source>%1 listed a name of %2 bytes in %3, longer than any file name here (%4 bytes); the listing was stopped.</source>
        <translation>%1 在 %3 中列出了一个 %2 字节的名称，超过本机允许的文件名长度（%4 字节）；已停止列出。</translation>
    </message>
    <message>
        <source>%1 sent more than %2 MiB of names for %3; the listing was stopped. If the folder really holds that many, raise the limit (gantry-cli: --max-output-mib).</source>
        <translation>%1 为 %3 发送了超过 %2 MiB 的文件名；已停止列出。如果该文件夹确实有这么多内容，请提高上限（gantry-cli：--max-output-mib）。</translation>
    </message>
    <message>
        <source>Editing %1 was stopped.</source>
        <translation>已停止编辑 %1。</translation>
    </message>
    <message>
        <source>%1 grew past %2 MiB while it was read; download it instead.</source>
        <translation>%1 在读取期间增长到超过 %2 MiB；请改为下载它。</translation>
    </message>
    <message>
        <source>%1 was deleted on %2 since it was opened.</source>
        <translation>自打开以来，%1 已在 %2 上被删除。</translation>
    </message>
    <message>
        <source>%1 changed on %2 since it was opened.</source>
        <translation>自打开以来，%1 已在 %2 上被更改。</translation>
    </message>
    <message>
        <source>%1 is not a regular file; only files can be edited.</source>
        <translation>%1 不是普通文件；只能编辑文件。</translation>
    </message>
    <message>
        <source>%1 is larger than %2 MiB; download it instead of editing it.</source>
        <translation>%1 大于 %2 MiB；请下载它，而不是编辑它。</translation>
    </message>
    <message>
        <source>Cannot write the local file %1: %2.</source>
        <translation>无法写入本地文件 %1：%2。</translation>
    </message>
    <message>
        <source>%1 listed more names in %3 than %2 MiB of memory hold (%4 entries so far); the listing was stopped. If the folder really holds that many, raise the limit (gantry-cli: --max-output-mib).</source>
        <translation>%1 在 %3 中列出的名称超过了 %2 MiB 内存所能容纳的量（目前已有 %4 项）；列出已停止。如果该文件夹确实有这么多内容，请提高上限（gantry-cli：--max-output-mib）。</translation>
    </message>
    <message>
        <source>%1 listed a path longer than any path here (%2 bytes) in %3; the listing was stopped.</source>
        <translation>%1 在 %3 中列出了一个比本机任何路径都长的路径（超过 %2 字节）；列出已停止。</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 does not hold the checked download after the rename (%2 bytes expected). Something else writes to this folder; retry once it is done.</source>
        <translation>重命名后 %1 中不是已校验的下载内容（应为 %2 字节）。有其他程序在写入此文件夹；待其完成后重试。</translation>
    </message>
    <message>
        <source>%1 on %2 does not hold the checked upload after the rename (%3 bytes expected). Something else writes there; retry once it is done.</source>
        <translation>重命名后 %2 上的 %1 中不是已校验的上传内容（应为 %3 字节）。有其他程序在写入该位置；待其完成后重试。</translation>
    </message>
    <message>
        <source>Closing</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The remote shell that Gantry keeps for batches stopped answering; a new one starts at the next sync.</source>
        <translation>Gantry 为批处理保留的远程 shell 已停止响应；下次同步时会启动一个新的。</translation>
    </message>
    <message>
        <source>The connection to %1 dropped while %2 was listed.</source>
        <translation>列出 %2 时与 %1 的连接中断。</translation>
    </message>
</context>
<context>
    <name>gantry::tunnel</name>
    <message>
        <source>Jupyter</source>
        <translation>Jupyter</translation>
    </message>
    <message>
        <source>TensorBoard</source>
        <translation>TensorBoard</translation>
    </message>
    <message>
        <source>Other port</source>
        <translation>其他端口</translation>
    </message>
</context>
<context>
    <name>gantry::tunnel::TunnelManager</name>
    <message>
        <source>%1 is not a port number (1–65535).</source>
        <translation>%1 不是有效的端口号（1–65535）。</translation>
    </message>
    <message>
        <source>%1 is not a local port number (1–65535, or empty for a free one).</source>
        <translation>%1 不是有效的本地端口号（1–65535，留空则自动选择空闲端口）。</translation>
    </message>
    <message>
        <source>Port %1 on %2 is already forwarded to http://127.0.0.1:%3/; use that tunnel or close it first.</source>
        <translation>%2 上的端口 %1 已转发到 http://127.0.0.1:%3/；请使用该隧道，或先将其关闭。</translation>
    </message>
    <message>
        <source>Local port %1 already carries the tunnel to %2:%3; pick another local port.</source>
        <translation>本地端口 %1 已被通往 %2:%3 的隧道占用；请选择其他本地端口。</translation>
    </message>
</context>
<context>
    <name>gantry::tunnel::TunnelWorker</name>
    <message>
        <source>Nothing listens on port %1 on %2; start it first (e.g. `jupyter lab --no-browser --port %1` or `tensorboard --logdir runs --port %1`).</source>
        <translation>%2 上没有程序监听端口 %1；请先启动服务（例如 `jupyter lab --no-browser --port %1` 或 `tensorboard --logdir runs --port %1`）。</translation>
    </message>
    <message>
        <source>Local port %1 is in use (%2); pick another one or leave it empty for a free port.</source>
        <translation>本地端口 %1 已被占用（%2）；请选择其他端口，或留空以自动选择空闲端口。</translation>
    </message>
    <message>
        <source>Cannot listen on 127.0.0.1: %1</source>
        <translation>无法在 127.0.0.1 上监听：%1</translation>
    </message>
    <message>
        <source>The SSH connection to %1 was lost.</source>
        <translation>与 %1 的 SSH 连接已断开。</translation>
    </message>
    <message>
        <source>The SSH connection to %1 was lost; the tunnel to port %2 is closed.</source>
        <translation>与 %1 的 SSH 连接已断开；通往端口 %2 的隧道已关闭。</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>已关闭</translation>
    </message>
</context>
<context>
    <name>gantry::ui::AcceptanceModel</name>
    <message>
        <source>Machine</source>
        <translation>整机</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
</context>
<context>
    <name>gantry::ui::AcceptancePanel</name>
    <message>
        <source>Save report…</source>
        <translation>保存报告…</translation>
    </message>
    <message>
        <source>Run the acceptance test to decide: keep this machine or give it back.</source>
        <translation>运行验收测试来决定：保留这台机器还是退还。</translation>
    </message>
    <message>
        <source>A printable page with the verdict, the figures and their references: what a refund request needs</source>
        <translation>可打印的页面，包含结论、性能数据及参考值：申请退款所需的材料</translation>
    </message>
    <message>
        <source>Save acceptance report</source>
        <translation>保存验收报告</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>网页 (*.html)</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more (see the table).</source>
        <translation>
            <numerusform>……另有 %n 项（见表格）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gantry::ui::AccountsPage</name>
    <message>
        <source>API keys are tested with one call to the provider, then kept in the system keychain. Gantry never shows a stored key again; replace it with a new one or remove it.</source>
        <translation>API 密钥会先向云服务商发起一次调用进行测试，然后保存在系统钥匙串中。已保存的密钥不会再次显示；可以用新密钥替换或将其删除。</translation>
    </message>
    <message>
        <source>Show advanced settings (API endpoints)</source>
        <translation>显示高级设置（API 端点）</translation>
    </message>
    <message>
        <source>Checking the keychain…</source>
        <translation>正在检查钥匙串…</translation>
    </message>
    <message>
        <source>paste a new API key</source>
        <translation>粘贴新的 API 密钥</translation>
    </message>
    <message>
        <source>Test and save</source>
        <translation>测试并保存</translation>
    </message>
    <message>
        <source>Remove key</source>
        <translation>删除密钥</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Key set by %1 in the environment (it takes precedence).</source>
        <translation>密钥由环境变量 %1 提供（优先使用）。</translation>
    </message>
    <message>
        <source>No keychain is available.</source>
        <translation>没有可用的钥匙串。</translation>
    </message>
    <message>
        <source>A key is stored in the keychain.</source>
        <translation>钥匙串中已保存密钥。</translation>
    </message>
    <message>
        <source>No key yet.</source>
        <translation>尚无密钥。</translation>
    </message>
    <message>
        <source>Paste the API key from the provider&apos;s console first.</source>
        <translation>请先粘贴云服务商控制台中的 API 密钥。</translation>
    </message>
    <message>
        <source>Testing the key with %1…</source>
        <translation>正在用 %1 测试密钥…</translation>
    </message>
    <message>
        <source>The key was not saved: %1</source>
        <translation>密钥未保存：%1</translation>
    </message>
    <message>
        <source>No keychain is available to keep the key.</source>
        <translation>没有可用于保存密钥的钥匙串。</translation>
    </message>
    <message>
        <source>The key works and is stored in the keychain.</source>
        <translation>密钥有效，已保存在钥匙串中。</translation>
    </message>
    <message>
        <source>Key removed from the keychain.</source>
        <translation>已从钥匙串中删除密钥。</translation>
    </message>
    <message>
        <source>Keep API keys in a file only you can read</source>
        <translation>将 API 密钥保存在仅您可读的文件中</translation>
    </message>
    <message>
        <source>%1 — turning this off deletes the file and the keys in it.</source>
        <translation>%1 —— 关闭此项会删除该文件及其中的密钥。</translation>
    </message>
    <message>
        <source>No keyring found on this desktop (no Secret Service or KWallet answers), so keys cannot be kept in one. Set the provider&apos;s environment variable (GANTRY_LAMBDA_API_KEY, …) before starting Gantry, or keep the keys in a file only you can read:</source>
        <translation>此桌面上未找到密钥环（Secret Service 和 KWallet 均无响应），因此无法将密钥保存在其中。请在启动 Gantry 之前设置云服务商的环境变量（GANTRY_LAMBDA_API_KEY 等），或将密钥保存在仅您可读的文件中：</translation>
    </message>
    <message>
        <source>A key is stored in the file.</source>
        <translation>密钥已保存在文件中。</translation>
    </message>
    <message>
        <source>Not saved: there is no keyring (see above).</source>
        <translation>未保存：没有密钥环（见上文）。</translation>
    </message>
    <message>
        <source>The key works and is stored in the file.</source>
        <translation>密钥有效，已保存在文件中。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::AddBucketDialog</name>
    <message>
        <source>Add bucket</source>
        <translation>添加存储桶</translation>
    </message>
    <message>
        <source>data (you copy with s3://data/…)</source>
        <translation>data（复制时写作 s3://data/…）</translation>
    </message>
    <message>
        <source>&quot;auto&quot; for Cloudflare R2; us-east-1 where the server ignores it.</source>
        <translation>Cloudflare R2 填“auto”；服务器不看区域时填 us-east-1。</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>端点：</translation>
    </message>
    <message>
        <source>Bucket:</source>
        <translation>存储桶：</translation>
    </message>
    <message>
        <source>Region:</source>
        <translation>区域：</translation>
    </message>
    <message>
        <source>Typed here, kept in the keychain</source>
        <translation>在此输入，保存在钥匙串中</translation>
    </message>
    <message>
        <source>From the environment (AWS_ACCESS_KEY_ID…), never stored</source>
        <translation>来自环境变量（AWS_ACCESS_KEY_ID…），从不保存</translation>
    </message>
    <message>
        <source>AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN are read at each use.</source>
        <translation>每次使用时读取 AWS_ACCESS_KEY_ID、AWS_SECRET_ACCESS_KEY 和 AWS_SESSION_TOKEN。</translation>
    </message>
    <message>
        <source>Start Gantry with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY set to use them.</source>
        <translation>要使用它们，请在设置了 AWS_ACCESS_KEY_ID 和 AWS_SECRET_ACCESS_KEY 的环境中启动 Gantry。</translation>
    </message>
    <message>
        <source>Keys:</source>
        <translation>密钥：</translation>
    </message>
    <message>
        <source>Access key ID:</source>
        <translation>访问密钥 ID：</translation>
    </message>
    <message>
        <source>Secret access key:</source>
        <translation>秘密访问密钥：</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Give the bucket&apos;s name as the provider shows it.</source>
        <translation>请填写存储桶名称，与服务商控制台显示的一致。</translation>
    </message>
    <message>
        <source>Give the access key ID and the secret access key from the provider&apos;s console.</source>
        <translation>请填写服务商控制台中的访问密钥 ID 和秘密访问密钥。</translation>
    </message>
    <message>
        <source>Testing the keys with one request to %1…</source>
        <translation>正在向 %1 发送一个请求以测试密钥…</translation>
    </message>
</context>
<context>
    <name>gantry::ui::AddHostDialog</name>
    <message>
        <source>Add SSH host</source>
        <translation>添加 SSH 主机</translation>
    </message>
    <message>
        <source>Paste the login command, e.g. ssh -p 23456 root@connect.example.com</source>
        <translation>粘贴登录命令，例如 ssh -p 23456 root@connect.example.com</translation>
    </message>
    <message>
        <source>root, ubuntu, …</source>
        <translation>root、ubuntu…</translation>
    </message>
    <message>
        <source>Automatic (agent, keys, then password)</source>
        <translation>自动（依次尝试 agent、密钥、密码）</translation>
    </message>
    <message>
        <source>SSH agent</source>
        <translation>SSH agent</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>密钥文件</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>stored in the system keychain, never in a file</source>
        <translation>保存在系统钥匙串中，绝不写入文件</translation>
    </message>
    <message>
        <source> /h</source>
        <translation> /h</translation>
    </message>
    <message>
        <source>Login command</source>
        <translation>登录命令</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation>认证方式</translation>
    </message>
    <message>
        <source>Hourly price</source>
        <translation>每小时价格</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>Give the machine a name.</source>
        <translation>请为这台机器命名。</translation>
    </message>
    <message>
        <source>The name may not contain spaces, &apos;@&apos;, &apos;:&apos; or &apos;/&apos;.</source>
        <translation>名称不能包含空格、&apos;@&apos;、&apos;:&apos; 或 &apos;/&apos;。</translation>
    </message>
    <message>
        <source>Enter the host name or IP address.</source>
        <translation>请输入主机名或 IP 地址。</translation>
    </message>
    <message>
        <source>Choose the private key file.</source>
        <translation>请选择私钥文件。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::BillingPrompts</name>
    <message>
        <source>It is an instance on %1, which bills until it is terminated.</source>
        <translation>这是 %1 上的实例，在终止之前会一直计费。</translation>
    </message>
    <message>
        <source>It is a stopped instance on %1 whose disk keeps billing %2/h after you remove it here.</source>
        <translation>这是 %1 上已停止的实例；在这里移除后，它的磁盘仍按 %2/小时 计费。</translation>
    </message>
    <message>
        <source>It is a running instance on %1 that keeps billing %2/h after you remove it here.</source>
        <translation>这是 %1 上正在运行的实例；在这里移除后，它仍按 %2/小时 计费。</translation>
    </message>
    <message>
        <source>Gantry stops counting its %1/h; the machine keeps billing wherever you rent it.</source>
        <translation>Gantry 将不再统计它的 %1/小时；这台机器在你租用它的地方仍会继续计费。</translation>
    </message>
    <message>
        <source>Remove %1 from Gantry?</source>
        <translation>从 Gantry 中移除 %1？</translation>
    </message>
    <message>
        <source>Removing the host only forgets how to log in. To stop the bill, terminate the instance.</source>
        <translation>移除主机只是忘记如何登录。要停止计费，请终止该实例。</translation>
    </message>
    <message>
        <source>Remove host</source>
        <translation>移除主机</translation>
    </message>
    <message>
        <source>Terminate instance</source>
        <translation>终止实例</translation>
    </message>
    <message>
        <source>Remove, keep billing</source>
        <translation>移除，继续计费</translation>
    </message>
    <message>
        <source>Instances still billing after Gantry quits: %1, %2 together. Quitting does not stop them; stop or terminate them in Instances when you no longer need them.</source>
        <translation>退出 Gantry 后仍在计费的实例：%1 个，合计 %2。退出不会停止它们；不再需要时，请在“实例”中停止或终止它们。</translation>
    </message>
    <message>
        <source>Quit Gantry?</source>
        <translation>退出 Gantry？</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Don&apos;t ask again about instances that keep billing</source>
        <translation>不再询问仍在计费的实例</translation>
    </message>
</context>
<context>
    <name>gantry::ui::BoundedLogView</name>
    <message>
        <source>Select a job to see its output since it started.</source>
        <translation>选择一个任务，查看它启动以来的输出。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::BucketBrowser</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 及另外 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上一级</translation>
    </message>
    <message>
        <source>The folder above this one</source>
        <translation>上一级文件夹</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Download to this computer…</source>
        <translation>下载到这台电脑…</translation>
    </message>
    <message>
        <source>Copy the selected objects and folders into a folder here; each is checked against the object&apos;s checksum.</source>
        <translation>把选中的对象和文件夹复制到本机的一个文件夹；每个文件都按对象的校验和核对。</translation>
    </message>
    <message>
        <source>Copy to machine…</source>
        <translation>复制到机器…</translation>
    </message>
    <message>
        <source>The machine fetches the selected objects itself with links that live an hour; no key reaches it.</source>
        <translation>由机器自己用有效期一小时的链接下载选中的对象；密钥不会到达机器。</translation>
    </message>
    <message>
        <source>Upload from this computer…</source>
        <translation>从这台电脑上传…</translation>
    </message>
    <message>
        <source>Copy files from here into this folder of the bucket.</source>
        <translation>把本机的文件复制到存储桶的这个文件夹。</translation>
    </message>
    <message>
        <source>Choose a bucket to see what is in it.</source>
        <translation>选择一个存储桶以查看其内容。</translation>
    </message>
    <message>
        <source>Listing s3://%1/%2…</source>
        <translation>正在列出 s3://%1/%2…</translation>
    </message>
    <message>
        <source>Showing the first %1 entries of this folder.</source>
        <translation>显示此文件夹的前 %1 项。</translation>
    </message>
    <message>
        <source>Nothing here yet: upload files, or copy them from a machine with gantry-cli cp.</source>
        <translation>这里还没有内容：上传文件，或用 gantry-cli cp 从机器复制过来。</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1 → %2:%3</source>
        <translation>%1 → %2:%3</translation>
    </message>
    <message>
        <source>%1 → s3://%2/%3</source>
        <translation>%1 → s3://%2/%3</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) → s3://%1/%2</source>
        <translation>
            <numerusform>%n 个文件 → s3://%1/%2</numerusform>
        </translation>
    </message>
    <message>
        <source>Download to</source>
        <translation>下载到</translation>
    </message>
    <message>
        <source>Upload to s3://%1/%2</source>
        <translation>上传到 s3://%1/%2</translation>
    </message>
    <message>
        <source>Copy to machine</source>
        <translation>复制到机器</translation>
    </message>
    <message>
        <source>A folder on the machine; ~/ is its home folder. It is made when missing.</source>
        <translation>机器上的文件夹；~/ 是其主目录。不存在时会自动创建。</translation>
    </message>
    <message>
        <source>Machine:</source>
        <translation>机器：</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>The machine downloads the objects itself: no bytes pass through this computer.</source>
        <translation>由机器自己下载这些对象：数据不经过这台电脑。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>gantry::ui::BucketTableModel</name>
    <message>
        <source>Read from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY each time; never stored.</source>
        <translation>每次从 AWS_ACCESS_KEY_ID 和 AWS_SECRET_ACCESS_KEY 读取；从不保存。</translation>
    </message>
    <message>
        <source>Stored in the keychain when the bucket was added.</source>
        <translation>添加存储桶时保存在钥匙串中。</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Keychain</source>
        <translation>钥匙串</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Bucket</source>
        <translation>存储桶</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>密钥</translation>
    </message>
</context>
<context>
    <name>gantry::ui::ClusterFromHostsDialog</name>
    <message>
        <source>New cluster from saved hosts</source>
        <translation>用已保存的主机组成集群</translation>
    </message>
    <message>
        <source>e.g. lab-pair</source>
        <translation>例如 lab-pair</translation>
    </message>
    <message>
        <source>Cluster name:</source>
        <translation>集群名称：</translation>
    </message>
    <message>
        <source>Machines:</source>
        <translation>机器：</translation>
    </message>
    <message>
        <source>Create cluster</source>
        <translation>组成集群</translation>
    </message>
    <message>
        <source>No saved hosts yet: add machines in the Machines list first.</source>
        <translation>还没有已保存的主机：请先在机器列表中添加机器。</translation>
    </message>
    <message>
        <source>Tick the machines to group, the head first: the first ticked is rank 0.</source>
        <translation>勾选要组成集群的机器，先勾选主节点：第一个勾选的是 rank 0（主节点）。</translation>
    </message>
    <message>
        <source>Name the cluster (letters, digits, &apos;.&apos;, &apos;_&apos;, &apos;-&apos;).</source>
        <translation>请为集群命名（字母、数字、“.”、“_”、“-”）。</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s); the head (rank 0) is %1.</source>
        <translation>
            <numerusform>%n 个节点；主节点（rank 0）是 %1。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gantry::ui::ClusterLaunchDialog</name>
    <message>
        <source>Launch cluster</source>
        <translation>创建集群</translation>
    </message>
    <message>
        <source>e.g. llama-finetune</source>
        <translation>例如 llama-finetune</translation>
    </message>
    <message>
        <source>an SSH key name on the provider&apos;s account</source>
        <translation>云服务商账户中的 SSH 密钥名称</translation>
    </message>
    <message>
        <source>Cluster name:</source>
        <translation>集群名称：</translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation>云服务商：</translation>
    </message>
    <message>
        <source>Instance type:</source>
        <translation>实例类型：</translation>
    </message>
    <message>
        <source>Region (all nodes):</source>
        <translation>区域（所有节点）：</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>节点数：</translation>
    </message>
    <message>
        <source>SSH key:</source>
        <translation>SSH 密钥：</translation>
    </message>
    <message>
        <source>Price:</source>
        <translation>价格：</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Name the cluster (letters, digits, &apos;.&apos;, &apos;_&apos;, &apos;-&apos;) and pick a type.</source>
        <translation>请为集群命名（字母、数字、&apos;.&apos;、&apos;_&apos;、&apos;-&apos;）并选择实例类型。</translation>
    </message>
    <message>
        <source>Loading instance types…</source>
        <translation>正在加载实例类型…</translation>
    </message>
    <message>
        <source>Pick an instance type.</source>
        <translation>请选择实例类型。</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) × $%1/h = $%2/h in total</source>
        <translation>
            <numerusform>%n 个节点 × $%1/h = 共 $%2/h</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (no private key on this computer)</source>
        <translation>%1（此计算机上没有私钥）</translation>
    </message>
</context>
<context>
    <name>gantry::ui::ClustersPanel</name>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>torchrun…</source>
        <translation>torchrun…</translation>
    </message>
    <message>
        <source>Terminate…</source>
        <translation>释放…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Launch cluster…</source>
        <translation>创建集群…</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>$/h</source>
        <translation>$/h</translation>
    </message>
    <message>
        <source>Rendezvous</source>
        <translation>Rendezvous 地址</translation>
    </message>
    <message>
        <source>Last job</source>
        <translation>最近任务</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Bus GB/s</source>
        <translation>总线 GB/s</translation>
    </message>
    <message>
        <source>The last job&apos;s log of the chosen rank appears here.</source>
        <translation>所选 rank 最近一次任务的日志会显示在这里。</translation>
    </message>
    <message>
        <source>Show log</source>
        <translation>显示日志</translation>
    </message>
    <message>
        <source>Log of</source>
        <translation>日志来源</translation>
    </message>
    <message>
        <source>saved hosts</source>
        <translation>已保存的主机</translation>
    </message>
    <message>
        <source>saved host</source>
        <translation>已保存的主机</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message numerus="yes">
        <source>Launching %n node(s) of %1…</source>
        <translation>
            <numerusform>正在创建 %n 个 %1 节点…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Only some nodes came up (%1); the %n that did were terminated so they do not bill.</source>
        <translation>
            <numerusform>只有部分节点启动成功（%1）；已启动的 %n 个节点已被释放，不会继续计费。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cluster %1 is up: %n node(s). Check it before training.</source>
        <translation>
            <numerusform>集群 %1 已就绪：%n 个节点。训练前请先检查。</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking %1: SSH, versions, the rendezvous port and an all-reduce…</source>
        <translation>正在检查 %1：SSH、版本、rendezvous 端口和 all-reduce…</translation>
    </message>
    <message>
        <source>Check of %1: %2</source>
        <translation>%1 的检查结果：%2</translation>
    </message>
    <message numerus="yes">
        <source>Starting %1 on %n node(s)…</source>
        <translation>
            <numerusform>正在 %n 个节点上启动 %1…</numerusform>
        </translation>
    </message>
    <message>
        <source>Not started everywhere (the ranks that started were stopped): %1</source>
        <translation>未能在所有节点上启动（已启动的 rank 已被停止）：%1</translation>
    </message>
    <message>
        <source>Started %1 on every node.</source>
        <translation>已在所有节点上启动 %1。</translation>
    </message>
    <message>
        <source>This cluster has run no job yet.</source>
        <translation>此集群尚未运行过任务。</translation>
    </message>
    <message numerus="yes">
        <source>Terminate the %n node(s) of %1? Their local disks are lost for good.</source>
        <translation>
            <numerusform>释放 %1 的 %n 个节点？其本地磁盘将永久丢失。</numerusform>
        </translation>
    </message>
    <message>
        <source>Job %1 failed on rank %2.</source>
        <translation>任务 %1 在 rank %2 上失败。</translation>
    </message>
    <message>
        <source>Job %1 failed on rank %2; still running and billing while waiting for it: rank %3. Stop them with Stop the other ranks.</source>
        <translation>任务 %1 在 rank %2 上失败；仍在运行并计费、等待它的：rank %3。请用“停止其他 rank”停止它们。</translation>
    </message>
    <message>
        <source>Job %1 is running on every rank.</source>
        <translation>任务 %1 正在每个 rank 上运行。</translation>
    </message>
    <message>
        <source>Job %1 succeeded on every rank.</source>
        <translation>任务 %1 在每个 rank 上都已成功。</translation>
    </message>
    <message>
        <source>Job %1: some ranks could not be read (see the Job column).</source>
        <translation>任务 %1：部分 rank 无法读取（见“任务”列）。</translation>
    </message>
    <message>
        <source>Stop job %1 on the ranks of %2 that still run? They cannot finish without the failed rank.</source>
        <translation>停止 %2 中仍在运行的 rank 上的任务 %1？缺少失败的 rank，它们无法完成。</translation>
    </message>
    <message>
        <source>Stopping %1 on the other ranks…</source>
        <translation>正在其他 rank 上停止 %1…</translation>
    </message>
    <message>
        <source>Job status</source>
        <translation>任务状态</translation>
    </message>
    <message>
        <source>Stop the other ranks…</source>
        <translation>停止其他 rank…</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Only some nodes came up: %1</source>
        <translation>只有部分节点启动成功：%1</translation>
    </message>
    <message numerus="yes">
        <source>Terminating the %n node(s) of %1…</source>
        <translation>
            <numerusform>正在释放 %1 的 %n 个节点…</numerusform>
        </translation>
    </message>
    <message>
        <source>Cluster %1 is terminated.</source>
        <translation>集群 %1 已释放。</translation>
    </message>
    <message>
        <source>Cluster %1: the rented nodes are terminated.</source>
        <translation>集群 %1：租用的节点已释放。</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) of %1 could not be terminated and may still bill; they stay in the cluster:</source>
        <translation>
            <numerusform>%1 有 %n 个节点未能释放，可能仍在计费；它们保留在集群中：</numerusform>
        </translation>
    </message>
    <message>
        <source>Check of %1 not run: the new nodes&apos; host keys were not trusted.</source>
        <translation>未检查 %1：新节点的主机密钥未被信任。</translation>
    </message>
    <message>
        <source>New cluster from saved hosts…</source>
        <translation>用已保存的主机组成集群…</translation>
    </message>
    <message>
        <source>No clusters yet. Launch one, or group machines you already have with “New cluster from saved hosts…”.</source>
        <translation>还没有集群。请创建一个，或用“用已保存的主机组成集群…”把已有的机器组成集群。</translation>
    </message>
    <message>
        <source>Creating cluster %1…</source>
        <translation>正在组成集群 %1…</translation>
    </message>
    <message>
        <source>Could not create cluster %1: %2</source>
        <translation>无法组成集群 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Cluster %1: %n node(s), head %2. Check it to see the nodes reach each other.</source>
        <translation>
            <numerusform>集群 %1：%n 个节点，主节点 %2。点“检查”确认各节点能互相连通。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gantry::ui::CopyOperations</name>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>%1 of %2 files, %3 of %4</source>
        <translation>%2 个文件中已完成 %1 个，%4 中已完成 %3</translation>
    </message>
    <message>
        <source>%1 of %2 files</source>
        <translation>%1 / %2 个文件</translation>
    </message>
</context>
<context>
    <name>gantry::ui::CostPanel</name>
    <message>
        <source>no budget</source>
        <translation>无预算</translation>
    </message>
    <message>
        <source>Save budgets</source>
        <translation>保存预算</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Daily budget</source>
        <translation>每日预算</translation>
    </message>
    <message>
        <source>Monthly budget</source>
        <translation>每月预算</translation>
    </message>
    <message>
        <source>Export cost ledger</source>
        <translation>导出费用账单记录</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Budgets are in US dollars and count only what is billed in dollars; a host billed in ¥ is not converted.</source>
        <translation>预算以美元计，只统计以美元计费的部分；以 ¥ 计费的主机不会被换算。</translation>
    </message>
    <message>
        <source>Daily budget (USD)</source>
        <translation>每日预算（美元）</translation>
    </message>
    <message>
        <source>Monthly budget (USD)</source>
        <translation>每月预算（美元）</translation>
    </message>
    <message>
        <source>Running now: %1 · Total: %2</source>
        <translation>当前运行：%1 · 合计：%2</translation>
    </message>
    <message>
        <source>%1: %2 of %3 (%4 %), USD only</source>
        <translation>%1：%2 / %3（%4 %），仅计美元</translation>
    </message>
    <message>
        <source>Gantry cannot see when a saved host&apos;s machine is powered on: pause its billing when you shut it down in the vendor&apos;s console, resume it when you power it on.</source>
        <translation>Gantry 无法得知已保存主机的机器何时开机：在服务商控制台关机时请暂停计费，开机时再恢复计费。</translation>
    </message>
    <message>
        <source>Disks of stopped instances: %1 now · %2 so far (in the total and the budgets)</source>
        <translation>已停止实例的磁盘：当前 %1 · 累计 %2（已计入总额和预算）</translation>
    </message>
    <message>
        <source>Pause billing</source>
        <translation>暂停计费</translation>
    </message>
    <message>
        <source>Resume billing</source>
        <translation>恢复计费</translation>
    </message>
    <message>
        <source>price unknown</source>
        <translation>价格未知</translation>
    </message>
    <message>
        <source>energy unknown</source>
        <translation>能耗未知</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source>Spent while the GPUs were under 30 % utilization (since monitoring began): %1</source>
        <translation>GPU 利用率低于 30 % 时的花费（自开始监控以来）：%1</translation>
    </message>
    <message>
        <source>Volumes: %1 now · %2 so far (in the total and the budgets; Storage → Volumes lists them)</source>
        <translation>卷：当前 %1 · 累计 %2（已计入总额和预算；“存储 → 卷”中列出）</translation>
    </message>
</context>
<context>
    <name>gantry::ui::DoctorModel</name>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <source>Fix</source>
        <translation>修复方法</translation>
    </message>
</context>
<context>
    <name>gantry::ui::DragOutMimeData</name>
    <message>
        <source>Drag and drop</source>
        <translation>拖放</translation>
    </message>
</context>
<context>
    <name>gantry::ui::DragOutStaging</name>
    <message>
        <source>The drag was cancelled; nothing was copied.</source>
        <translation>拖放已取消，未复制任何内容。</translation>
    </message>
    <message>
        <source>The transfer queue is gone.</source>
        <translation>传输队列已不存在。</translation>
    </message>
    <message>
        <source>Could not download %1 for the drag: %2</source>
        <translation>无法为拖放下载 %1：%2</translation>
    </message>
    <message>
        <source>The download of %1 was cancelled.</source>
        <translation>%1 的下载已取消。</translation>
    </message>
    <message>
        <source>Downloading from %1 for the drop…</source>
        <translation>正在从 %1 下载拖放的文件…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>The download for the drop is still running; it continues in the transfers panel.</source>
        <translation>拖放的下载仍在进行，将在传输面板中继续。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::FilesTab</name>
    <message>
        <source>Up</source>
        <translation>上一级</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>New folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Connect to %1 to browse its files. You can drop files here once connected.</source>
        <translation>连接到 %1 以浏览其文件。连接后可将文件拖放到这里。</translation>
    </message>
    <message>
        <source>Select a machine to see its files.</source>
        <translation>选择一台机器以查看其文件。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) in %1</source>
        <translation>
            <numerusform>%1 中有 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>New folder name:</source>
        <translation>新文件夹名称：</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message numerus="yes">
        <source>%n upload(s) queued to %1.</source>
        <translation>
            <numerusform>已将 %n 个上传任务加入队列，目标 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Download to</source>
        <translation>下载到</translation>
    </message>
    <message numerus="yes">
        <source>Downloading %n item(s) for the drop…</source>
        <translation>
            <numerusform>正在下载拖放的 %n 项…</numerusform>
        </translation>
    </message>
    <message>
        <source>Drag cancelled; its downloads were cancelled.</source>
        <translation>拖放已取消，相关下载也已取消。</translation>
    </message>
    <message>
        <source>Copied to the drop target (staged in %1).</source>
        <translation>已复制到拖放目标（暂存于 %1）。</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the running operation on the machine</source>
        <translation>停止机器上正在进行的操作</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>This folder is empty.
Drop files here or press Ctrl+U to upload.</source>
        <translation>此文件夹为空。
将文件拖放到此处，或按 Ctrl+U 上传。</translation>
    </message>
    <message>
        <source>Creating %1…</source>
        <translation>正在创建 %1…</translation>
    </message>
    <message>
        <source>Renaming %1…</source>
        <translation>正在重命名 %1…</translation>
    </message>
    <message numerus="yes">
        <source>Counting what %n item(s) hold…</source>
        <translation>
            <numerusform>正在统计 %n 个条目包含的内容…</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete %1 on %2?</source>
        <translation>删除 %2 上的 %1？</translation>
    </message>
    <message numerus="yes">
        <source>Delete the folder %1 on %2 and everything in it: %n file(s)</source>
        <translation>
            <numerusform>删除 %2 上的文件夹 %1 及其中的所有内容：%n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n subfolder(s)?</source>
        <translation>
            <numerusform>和 %n 个子文件夹？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n item(s) in %1 on %2</source>
        <translation>
            <numerusform>删除 %2 上 %1 中的 %n 个条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n file(s) in all</source>
        <translation>
            <numerusform>，共 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n folder(s)?</source>
        <translation>
            <numerusform>和 %n 个文件夹？</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation>此操作无法撤销。</translation>
    </message>
    <message>
        <source>Nothing deleted.</source>
        <translation>未删除任何内容。</translation>
    </message>
    <message numerus="yes">
        <source>Deleting %n item(s)…</source>
        <translation>
            <numerusform>正在删除 %n 个条目…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n download(s) queued to %1.</source>
        <translation>
            <numerusform>已将 %n 个下载加入队列，保存到 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Upload files…</source>
        <translation>上传文件…</translation>
    </message>
    <message>
        <source>Upload folder…</source>
        <translation>上传文件夹…</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Open terminal here</source>
        <translation>在此处打开终端</translation>
    </message>
    <message>
        <source>New folder…</source>
        <translation>新建文件夹…</translation>
    </message>
    <message>
        <source>Upload files to %1</source>
        <translation>上传文件到 %1</translation>
    </message>
    <message>
        <source>Upload a folder to %1</source>
        <translation>上传文件夹到 %1</translation>
    </message>
    <message numerus="yes">
        <source>Copied %n path(s).</source>
        <translation>
            <numerusform>已复制 %n 个路径。</numerusform>
        </translation>
    </message>
    <message>
        <source>Opened a terminal in %1.</source>
        <translation>已在 %1 中打开终端。</translation>
    </message>
    <message>
        <source>No terminal could be started here; the ssh command for %1 is on the clipboard: %2</source>
        <translation>无法在此启动终端；进入 %1 的 ssh 命令已复制到剪贴板：%2</translation>
    </message>
    <message>
        <source>Sync a local folder here…</source>
        <translation>将本地文件夹同步到此处…</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Drop to upload into %1 on %2</source>
        <translation>松开即上传到 %2 上的 %1</translation>
    </message>
    <message>
        <source>Local files</source>
        <translation>本地文件</translation>
    </message>
    <message>
        <source>Show this computer&apos;s files beside the machine&apos;s; drag between them to transfer</source>
        <translation>在机器文件旁显示本机文件；在两者之间拖放即可传输</translation>
    </message>
</context>
<context>
    <name>gantry::ui::ForgetRecord</name>
    <message>
        <source>Forget the record of %1?

Its passes and failures are cleared and it is no longer flagged: its offers show in Prices again. Do this once the host has fixed the machine; the next Verify records it anew.</source>
        <translation>要忘记 %1 的记录吗？

它的通过和失败次数会被清除，也不再被标记：它的报价会重新出现在“价格”中。请在主机修好这台机器后再这样做；下次验证会重新记录它。</translation>
    </message>
    <message>
        <source>Forget machine record</source>
        <translation>忘记机器记录</translation>
    </message>
</context>
<context>
    <name>gantry::ui::HandoffActions</name>
    <message>
        <source>Open in VS Code</source>
        <translation>在 VS Code 中打开</translation>
    </message>
    <message>
        <source>Open in Cursor</source>
        <translation>在 Cursor 中打开</translation>
    </message>
    <message>
        <source>Open terminal</source>
        <translation>打开终端</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) open in an editor (%1): saves after quitting are not uploaded.</source>
        <translation>
            <numerusform>%n 个文件正在编辑器中打开（%1）：退出后的保存不会上传。</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a machine first.</source>
        <translation>请先选择一台机器。</translation>
    </message>
    <message>
        <source>Opened a terminal on %1: %2</source>
        <translation>已在 %1 上打开终端：%2</translation>
    </message>
    <message>
        <source>Opened %1 in %2: %3</source>
        <translation>已在 %2 中打开 %1：%3</translation>
    </message>
    <message>
        <source>%1 reaches a machine by its name in ~/.ssh/config, and %2 has none there yet.</source>
        <translation>%1 通过 ~/.ssh/config 中的名称连接机器，而 %2 在那里还没有条目。</translation>
    </message>
    <message>
        <source>Gantry can keep a marked block with an entry for each of its machines in ~/.ssh/config (a backup of the file is saved first; nothing outside the block changes). Then ssh, scp and editors reach them by name too.</source>
        <translation>Gantry 可以在 ~/.ssh/config 中维护一个带标记的区块，为它的每台机器写一个条目（先保存该文件的备份；区块之外的内容不变）。之后 ssh、scp 和编辑器也能按名称连接它们。</translation>
    </message>
    <message>
        <source>Write entries and open</source>
        <translation>写入条目并打开</translation>
    </message>
    <message>
        <source>Wrote entries for Gantry&apos;s machines to ~/.ssh/config.</source>
        <translation>已将 Gantry 机器的条目写入 ~/.ssh/config。</translation>
    </message>
    <message>
        <source>Copy command</source>
        <translation>复制命令</translation>
    </message>
    <message>
        <source>Show local copy</source>
        <translation>显示本地副本</translation>
    </message>
    <message>
        <source>Copied: %1</source>
        <translation>已复制：%1</translation>
    </message>
    <message>
        <source>%1 is already open for editing.</source>
        <translation>%1 已在编辑中。</translation>
    </message>
    <message>
        <source>Downloading %1 from %2 to edit it…</source>
        <translation>正在从 %2 下载 %1 以便编辑…</translation>
    </message>
    <message>
        <source>Editing %1 from %2 in %3; each save is uploaded.</source>
        <translation>正在 %3 中编辑来自 %2 的 %1；每次保存都会上传。</translation>
    </message>
    <message>
        <source>Uploaded %1 to %2 (save %3).</source>
        <translation>已将 %1 上传到 %2（第 %3 次保存）。</translation>
    </message>
    <message>
        <source>Not uploaded: changed on the machine</source>
        <translation>未上传：机器上的文件已更改</translation>
    </message>
    <message>
        <source>Editing %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message numerus="yes">
        <source>Editing %n files</source>
        <translation>
            <numerusform>正在编辑 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>End editing %1</source>
        <translation>结束编辑 %1</translation>
    </message>
</context>
<context>
    <name>gantry::ui::HelpWindow</name>
    <message>
        <source>Gantry manual</source>
        <translation>Gantry 使用手册</translation>
    </message>
</context>
<context>
    <name>gantry::ui::InstancesModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>累计费用</translation>
    </message>
    <message>
        <source>$%1/day storage</source>
        <translation>存储 $%1/天</translation>
    </message>
    <message>
        <source>storage billed</source>
        <translation>存储计费中</translation>
    </message>
    <message>
        <source>$0/h stopped</source>
        <translation>$0/小时（已停止）</translation>
    </message>
</context>
<context>
    <name>gantry::ui::InstancesPanel</name>
    <message>
        <source>Stop</source>
        <translation>关机</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开机</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>Terminate…</source>
        <translation>释放…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>%1 cannot stop instances; terminate instead.</source>
        <translation>%1 不支持实例关机，请改为释放。</translation>
    </message>
    <message>
        <source>Waiting for %1 to boot…</source>
        <translation>正在等待 %1 启动…</translation>
    </message>
    <message>
        <source>%1 is running at %2@%3:%4.</source>
        <translation>%1 正在运行，地址 %2@%3:%4。</translation>
    </message>
    <message>
        <source>Confirm %1</source>
        <translation>确认%1</translation>
    </message>
    <message>
        <source>Terminate %1 on %2?

Lost for good: the instance and its local disk — everything not on a persistent filesystem or volume.</source>
        <translation>释放 %2 上的 %1？

将永久丢失：该实例及其本地磁盘，即所有未存放在持久文件系统或数据盘上的内容。</translation>
    </message>
    <message>
        <source>
Kept, and still billing storage: filesystem %1.</source>
        <translation>
将保留并继续收取存储费用：文件系统 %1。</translation>
    </message>
    <message>
        <source>
Persistent volumes you created separately are kept and keep billing storage.</source>
        <translation>
你单独创建的持久数据盘会保留，并继续收取存储费用。</translation>
    </message>
    <message>
        <source>
Billing for the instance stops.</source>
        <translation>
该实例停止计费。</translation>
    </message>
    <message>
        <source>Stop %1 on %2?

Compute billing stops.</source>
        <translation>将 %2 上的 %1 关机？

计算资源停止计费。</translation>
    </message>
    <message>
        <source> That is about $%1 a day until you terminate it.</source>
        <translation>释放前大约每天 $%1。</translation>
    </message>
    <message>
        <source>
Starting again may fail if the GPU was rented by someone else meanwhile.</source>
        <translation>
如果在此期间 GPU 被他人租用，再次开机可能会失败。</translation>
    </message>
    <message>
        <source>Restart %1 on %2?

Running programs and open SSH sessions end; files on disk are kept. Billing continues.</source>
        <translation>重启 %2 上的 %1？

正在运行的程序和已打开的 SSH 会话将结束；磁盘上的文件会保留。计费继续。</translation>
    </message>
    <message>
        <source>Start %1 on %2?

Compute billing resumes at %3/h.</source>
        <translation>将 %2 上的 %1 开机？

计算资源将恢复按 %3/h 计费。</translation>
    </message>
    <message>
        <source>
Lost: %1.</source>
        <translation>
丢失：%1。</translation>
    </message>
    <message>
        <source>
Kept, and still billing storage while stopped: %1.</source>
        <translation>
保留，停止期间仍按存储计费：%1。</translation>
    </message>
    <message>
        <source>
Kept: %1.</source>
        <translation>
保留：%1。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::JobListModel</name>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
</context>
<context>
    <name>gantry::ui::JobsTab</name>
    <message>
        <source>Run…</source>
        <translation>运行…</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Rerun</source>
        <translation>重新运行</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Close tunnel</source>
        <translation>关闭隧道</translation>
    </message>
    <message>
        <source>SIGINT, then SIGTERM and SIGKILL if the job does not end</source>
        <translation>先发送 SIGINT；若任务未结束，再发送 SIGTERM 和 SIGKILL</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Tunnels</source>
        <translation>隧道</translation>
    </message>
    <message>
        <source>Forward a port</source>
        <translation>转发端口</translation>
    </message>
    <message>
        <source>Port on the machine:</source>
        <translation>机器上的端口：</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>VS Code</source>
        <translation>VS Code</translation>
    </message>
    <message>
        <source>Results to bring home</source>
        <translation>要取回的结果</translation>
    </message>
    <message>
        <source>One path or pattern per line, e.g.
outputs/
*.pth
runs/</source>
        <translation>每行一个路径或通配模式，例如
outputs/
*.pth
runs/</translation>
    </message>
    <message>
        <source>Downloaded before this machine is terminated; relative to the home directory.</source>
        <translation>在释放这台机器之前下载；路径相对于主目录。</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Started %1 (%2).</source>
        <translation>已启动 %1（%2）。</translation>
    </message>
    <message>
        <source>%1 ended at once (%2): %3</source>
        <translation>%1 启动后立即结束（%2）：%3</translation>
    </message>
    <message>
        <source>Jobs in ~/.gantry/jobs on %1.</source>
        <translation>%1 上 ~/.gantry/jobs 中的任务。</translation>
    </message>
    <message>
        <source>Connect to %1 to see and run its jobs.</source>
        <translation>连接到 %1 以查看和运行其任务。</translation>
    </message>
    <message>
        <source>Starting the job on %1…</source>
        <translation>正在 %1 上启动任务…</translation>
    </message>
    <message>
        <source>Stopping %1: SIGINT, then SIGTERM and SIGKILL if it does not end…</source>
        <translation>正在停止 %1：先发送 SIGINT；若未结束，再发送 SIGTERM 和 SIGKILL…</translation>
    </message>
    <message>
        <source>Remove job</source>
        <translation>移除任务</translation>
    </message>
    <message>
        <source>Remove the job %1 and its log from %2?</source>
        <translation>要从 %2 移除任务 %1 及其日志吗？</translation>
    </message>
    <message>
        <source>port %1</source>
        <translation>端口 %1</translation>
    </message>
    <message>
        <source>%1: %2 → port %3 (%4 connections)</source>
        <translation>%1：%2 → 端口 %3（%4 个连接）</translation>
    </message>
    <message>
        <source>%1: opening…</source>
        <translation>%1：正在打开…</translation>
    </message>
    <message>
        <source>Opening a tunnel to port %1…</source>
        <translation>正在打开通往端口 %1 的隧道…</translation>
    </message>
    <message>
        <source>Port %1 is at %2</source>
        <translation>端口 %1 位于 %2</translation>
    </message>
    <message>
        <source>Opened a terminal: %1</source>
        <translation>已打开终端：%1</translation>
    </message>
    <message>
        <source>Saved: these are downloaded before %1 is terminated.</source>
        <translation>已保存：这些内容将在释放 %1 之前下载。</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>%1 stopped: %2.</source>
        <translation>%1 已停止：%2。</translation>
    </message>
    <message>
        <source>%1 stopped.</source>
        <translation>%1 已停止。</translation>
    </message>
    <message>
        <source>Stop job</source>
        <translation>停止任务</translation>
    </message>
    <message>
        <source>Stop the running job %1 on %2?</source>
        <translation>要停止 %2 上正在运行的任务 %1 吗？</translation>
    </message>
    <message>
        <source>Opened %1 in VS Code: %2</source>
        <translation>已在 VS Code 中打开 %1：%2</translation>
    </message>
</context>
<context>
    <name>gantry::ui::KeysDialog</name>
    <message>
        <source>SSH keys</source>
        <translation>SSH 密钥</translation>
    </message>
    <message>
        <source>Generate new key…</source>
        <translation>生成新密钥…</translation>
    </message>
    <message>
        <source>Copy public key</source>
        <translation>复制公钥</translation>
    </message>
    <message>
        <source>Private keys with a public half (.pub):</source>
        <translation>带有对应公钥（.pub）的私钥：</translation>
    </message>
    <message>
        <source>Copied. Paste it into your provider&apos;s SSH keys page or the machine&apos;s ~/.ssh/authorized_keys.</source>
        <translation>已复制。请粘贴到云服务商的 SSH 密钥页面，或机器上的 ~/.ssh/authorized_keys 中。</translation>
    </message>
    <message>
        <source>Generate ed25519 key</source>
        <translation>生成 ed25519 密钥</translation>
    </message>
    <message>
        <source>Private key file:</source>
        <translation>私钥文件：</translation>
    </message>
    <message>
        <source>Generate key</source>
        <translation>生成密钥</translation>
    </message>
    <message>
        <source>No key pair found. Generate one: Gantry writes the private key with mode 0600.</source>
        <translation>未找到密钥对。请生成一个：Gantry 会以 0600 权限写入私钥。</translation>
    </message>
    <message>
        <source>Wrote %1 (mode 0600). Fingerprint %2.</source>
        <translation>已写入 %1（权限 0600）。指纹 %2。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::LanguageMenu</name>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The language changes when Gantry next starts.</source>
        <translation>语言将在下次启动 Gantry 时生效。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::LaunchDialog</name>
    <message>
        <source>Launch an instance</source>
        <translation>创建实例</translation>
    </message>
    <message>
        <source> GB volume disk</source>
        <translation> GB 数据盘</translation>
    </message>
    <message>
        <source>No volume disk</source>
        <translation>不挂载数据盘</translation>
    </message>
    <message>
        <source>optional, e.g. training-1</source>
        <translation>可选，例如 training-1</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>SSH key</source>
        <translation>SSH 密钥</translation>
    </message>
    <message>
        <source>Persistent storage</source>
        <translation>持久存储</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Planned duration</source>
        <translation>计划时长</translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation>费用预估</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source> (no capacity now)</source>
        <translation>（当前无库存）</translation>
    </message>
    <message>
        <source>Provider default</source>
        <translation>云服务商默认</translation>
    </message>
    <message>
        <source>None (the local disk is lost on terminate)</source>
        <translation>无（释放实例时本地磁盘数据将丢失）</translation>
    </message>
    <message>
        <source>%1 (mounted at %2)</source>
        <translation>%1（挂载于 %2）</translation>
    </message>
    <message>
        <source>$%1 per hour ($%2 per GPU-hour)</source>
        <translation>每小时 $%1（每 GPU 每小时 $%2）</translation>
    </message>
    <message>
        <source>about $%1 for %2 h; plan for $%3 (×%4 safety margin)</source>
        <translation>%2 小时约 $%1；建议预留 $%3（×%4 安全系数）</translation>
    </message>
    <message>
        <source>No region has capacity for this type right now.</source>
        <translation>该规格目前在所有地域均无库存。</translation>
    </message>
    <message>
        <source>Uploading key…</source>
        <translation>正在上传密钥…</translation>
    </message>
    <message>
        <source>Launching…</source>
        <translation>正在创建…</translation>
    </message>
    <message>
        <source>; the %1 GB disk adds $%2 (and $%3 a day while stopped)</source>
        <translation>；%1 GB 磁盘另需 $%2（关机时每天 $%3）</translation>
    </message>
    <message>
        <source>Equivalent offers</source>
        <translation>同等报价</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>Gantry logs in with %1</source>
        <translation>Gantry 用 %1 登录</translation>
    </message>
    <message>
        <source>%1 (no private key on this computer)</source>
        <translation>%1（此计算机上没有私钥）</translation>
    </message>
    <message>
        <source>Upload Gantry&apos;s key (%1)</source>
        <translation>上传 Gantry 的密钥（%1）</translation>
    </message>
    <message>
        <source>Generate and upload a key</source>
        <translation>生成并上传密钥</translation>
    </message>
    <message>
        <source>No private key on this computer matches &quot;%1&quot;: the machine would only let in a computer that has it, and Gantry could not connect. Pick a key without the marker, or generate and upload one.</source>
        <translation>此计算机上没有与“%1”匹配的私钥：机器只允许持有该私钥的计算机登录，Gantry 将无法连接。请选择没有此标记的密钥，或生成并上传一个。</translation>
    </message>
    <message>
        <source>Finding the cheapest offer…</source>
        <translation>正在查找最便宜的报价…</translation>
    </message>
    <message>
        <source>Looking for equivalent offers…</source>
        <translation>正在查找同等报价…</translation>
    </message>
    <message>
        <source>$%1/h</source>
        <translation>$%1/小时</translation>
    </message>
    <message>
        <source>%1× %2</source>
        <translation>%1× %2</translation>
    </message>
    <message>
        <source>reliability %1%</source>
        <translation>可靠性 %1%</translation>
    </message>
    <message>
        <source>offer %1</source>
        <translation>报价 %1</translation>
    </message>
    <message>
        <source>No equivalent offer is rentable right now: pick another type, or try again later.</source>
        <translation>目前没有可租用的同等报价：请选择其他类型，或稍后再试。</translation>
    </message>
    <message>
        <source>Someone else rented offer %1 before Gantry could. These are the same GPU and count, cheapest first: pick one and press Launch again.</source>
        <translation>报价 %1 已被他人抢先租用。以下是相同 GPU 型号和数量的报价，按价格从低到高排列：选择一个后再次点击“创建”。</translation>
    </message>
    <message>
        <source>%1 (%2 GB)</source>
        <translation>%1（%2 GB）</translation>
    </message>
    <message>
        <source>New volume…</source>
        <translation>新建存储卷…</translation>
    </message>
    <message>
        <source>Make a volume in the chosen region: its files outlive the instance</source>
        <translation>在所选区域新建存储卷：其中的文件在实例终止后仍然保留</translation>
    </message>
    <message>
        <source>Choose a type that can launch now first: a volume lives in one region.</source>
        <translation>请先选择一个现在就能启动的类型：存储卷只存在于一个区域。</translation>
    </message>
    <message>
        <source>New volume</source>
        <translation>新建存储卷</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>容量：</translation>
    </message>
    <message>
        <source>$%1 per GB-month</source>
        <translation>每 GB 每月 $%1</translation>
    </message>
    <message>
        <source>the provider&apos;s storage price</source>
        <translation>服务商的存储价格</translation>
    </message>
    <message>
        <source>In %1 at %2. It bills %3 for as long as it exists, attached or not; delete it on the Storage panel&apos;s Volumes page.</source>
        <translation>位于 %2 的 %1 区域。只要存在就按 %3 计费，无论是否挂载；可在“存储”面板的“卷”页删除。</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Creating…</source>
        <translation>正在创建…</translation>
    </message>
</context>
<context>
    <name>gantry::ui::LedgerModel</name>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>规格</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Price at launch</source>
        <translation>创建时价格</translation>
    </message>
    <message>
        <source>Launched</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Terminated</source>
        <translation>释放时间</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>The disk of this instance bills %1/h while it is stopped (%2 GB); what it cost running is under Compute.</source>
        <translation>此实例停止期间磁盘按 %1/小时计费（%2 GB）；运行期间的费用见“计算”列。</translation>
    </message>
    <message>
        <source>Saved host</source>
        <translation>已保存主机</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
</context>
<context>
    <name>gantry::ui::LocalFilesPane</name>
    <message>
        <source>Up</source>
        <translation>上一级</translation>
    </message>
    <message>
        <source>A folder on this computer</source>
        <translation>本机上的文件夹</translation>
    </message>
    <message>
        <source>This computer:</source>
        <translation>本机：</translation>
    </message>
</context>
<context>
    <name>gantry::ui::MachineTableModel</name>
    <message>
        <source>~/.ssh/config</source>
        <translation>~/.ssh/config</translation>
    </message>
    <message>
        <source>SSH host</source>
        <translation>SSH 主机</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
</context>
<context>
    <name>gantry::ui::MainWindow</name>
    <message>
        <source>Gantry — cloud GPUs</source>
        <translation>Gantry — 云 GPU</translation>
    </message>
    <message>
        <source>Saved hosts</source>
        <translation>已保存的主机</translation>
    </message>
    <message>
        <source>Passphrase for %1:</source>
        <translation>%1 的密码短语：</translation>
    </message>
    <message>
        <source>Machines</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Filter machines by name, address or provider</source>
        <translation>按名称、地址或云服务商筛选机器</translation>
    </message>
    <message>
        <source>Import ~/.ssh/config</source>
        <translation>导入 ~/.ssh/config</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>断开</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>SSH keys…</source>
        <translation>SSH 密钥…</translation>
    </message>
    <message>
        <source>Select a machine first.</source>
        <translation>请先选择一台机器。</translation>
    </message>
    <message>
        <source>Add host</source>
        <translation>添加主机</translation>
    </message>
    <message>
        <source>Keychain</source>
        <translation>钥匙串</translation>
    </message>
    <message>
        <source>The host was saved, but its password was not: %1</source>
        <translation>主机已保存，但密码未能保存：%1</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message numerus="yes">
        <source>%n host(s) in %1, %2 new.</source>
        <translation>
            <numerusform>%1 中有 %n 个主机，其中 %2 个为新增。</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove host</source>
        <translation>移除主机</translation>
    </message>
    <message>
        <source>Remove %1 from Gantry? The machine itself is not touched.</source>
        <translation>要从 Gantry 中移除 %1 吗？机器本身不受影响。</translation>
    </message>
    <message>
        <source>New host key</source>
        <translation>新的主机密钥</translation>
    </message>
    <message>
        <source>This is the first connection to %1:%2.

Its %3 host key fingerprint is
%4

Compare it with the fingerprint your provider shows (console or boot log). Trust it and connect? It will be recorded in %5.</source>
        <translation>这是首次连接 %1:%2。

其 %3 主机密钥指纹为
%4

请与云服务商显示的指纹（控制台或启动日志）进行比对。是否信任并连接？该指纹将记录到 %5。</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Add SSH host…</source>
        <translation>添加 SSH 主机…</translation>
    </message>
    <message>
        <source>Upload files…</source>
        <translation>上传文件…</translation>
    </message>
    <message>
        <source>Upload folder…</source>
        <translation>上传文件夹…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Filter…</source>
        <translation>筛选…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Next tab</source>
        <translation>下一个标签页</translation>
    </message>
    <message>
        <source>Previous tab</source>
        <translation>上一个标签页</translation>
    </message>
    <message>
        <source>Go to</source>
        <translation>转到</translation>
    </message>
    <message>
        <source>&amp;Machine</source>
        <translation>机器(&amp;M)</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>创建…</translation>
    </message>
    <message>
        <source>Try the local sandbox</source>
        <translation>试用本地沙盒</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>Cloud accounts…</source>
        <translation>云账户…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Gantry help</source>
        <translation>Gantry 帮助</translation>
    </message>
    <message>
        <source>Save diagnostic report…</source>
        <translation>保存诊断报告…</translation>
    </message>
    <message>
        <source>About Gantry</source>
        <translation>关于 Gantry</translation>
    </message>
    <message>
        <source>Save diagnostic report</source>
        <translation>保存诊断报告</translation>
    </message>
    <message>
        <source>Text files (*.txt)</source>
        <translation>文本文件 (*.txt)</translation>
    </message>
    <message>
        <source>Gantry %1: rent, verify, use and watch cloud GPUs.</source>
        <translation>Gantry %1：租用、验证、使用和监控云 GPU。</translation>
    </message>
    <message>
        <source>Open the machine&apos;s Files tab to upload.</source>
        <translation>请打开该机器的“文件”标签页进行上传。</translation>
    </message>
    <message>
        <source>Writing the diagnostic report…</source>
        <translation>正在写入诊断报告…</translation>
    </message>
    <message>
        <source>Diagnostic report saved to %1 (secrets removed).</source>
        <translation>诊断报告已保存到 %1（已移除所有密钥和密码）。</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Open terminal</source>
        <translation>打开终端</translation>
    </message>
    <message>
        <source>Open in VS Code</source>
        <translation>在 VS Code 中打开</translation>
    </message>
    <message>
        <source>Open in Cursor</source>
        <translation>在 Cursor 中打开</translation>
    </message>
    <message>
        <source>Terminating %1…</source>
        <translation>正在终止 %1…</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>终止</translation>
    </message>
    <message>
        <source>Verify GPU</source>
        <translation>验证 GPU</translation>
    </message>
    <message>
        <source>Doctor</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>Stop instance…</source>
        <translation>实例关机…</translation>
    </message>
    <message>
        <source>Start instance</source>
        <translation>实例开机</translation>
    </message>
    <message>
        <source>Restart instance…</source>
        <translation>重启实例…</translation>
    </message>
    <message>
        <source>Terminate instance…</source>
        <translation>释放实例…</translation>
    </message>
    <message>
        <source>Select a machine that Gantry launched or lists at a cloud provider; other machines are stopped at their provider.</source>
        <translation>请选择由 Gantry 创建或在云厂商处列出的机器；其他机器请在其云厂商处关机。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::NewRunDialog</name>
    <message>
        <source>New run</source>
        <translation>新建运行</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>Choose the folder with your training code</source>
        <translation>选择包含训练代码的文件夹</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Run spec (saved as run.yaml in the folder):</source>
        <translation>运行规格（保存为文件夹中的 run.yaml）：</translation>
    </message>
    <message>
        <source>What it would rent right now (cheapest first):</source>
        <translation>现在会租用的机器（最便宜的在前）：</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Folder of the run</source>
        <translation>运行的文件夹</translation>
    </message>
    <message>
        <source>Choose a folder first.</source>
        <translation>请先选择文件夹。</translation>
    </message>
    <message>
        <source>The spec is valid. No prices are known yet; the run looks for an offer when it starts.</source>
        <translation>规格有效。尚无价格信息；运行启动时会寻找报价。</translation>
    </message>
    <message>
        <source>The spec is valid, but nothing fits it right now; the run waits for capacity when it starts.</source>
        <translation>规格有效，但目前没有符合的报价；运行启动后会等待可用容量。</translation>
    </message>
    <message>
        <source>The spec is valid. It would rent %1 on %2 at $%3/h.</source>
        <translation>规格有效。将以 $%3/小时 在 %2 上租用 %1。</translation>
    </message>
    <message>
        <source>%1 (spot)</source>
        <translation>%1（竞价）</translation>
    </message>
    <message>
        <source>$%1/h</source>
        <translation>$%1/小时</translation>
    </message>
    <message>
        <source>Cannot save %1: %2.</source>
        <translation>无法保存 %1：%2。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::ObjectTableModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
</context>
<context>
    <name>gantry::ui::OverviewTab</name>
    <message>
        <source>Select a machine and connect to see its facts.</source>
        <translation>选择一台机器并连接，即可查看其配置信息。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Fact</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>%1 (%2) is not connected. Press Connect.</source>
        <translation>%1（%2）未连接，请点击“连接”。</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Gathering facts from %1…</source>
        <translation>正在收集 %1 的配置信息…</translation>
    </message>
    <message>
        <source>Operating system</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>%1 cores — %2</source>
        <translation>%1 核 — %2</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>%1 GiB total, %2 GiB available</source>
        <translation>共 %1 GiB，可用 %2 GiB</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>%1 GiB free of %2 GiB on %3</source>
        <translation>%3 可用 %1 GiB，共 %2 GiB</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>%1, %2 GiB</source>
        <translation>%1，%2 GiB</translation>
    </message>
    <message>
        <source>Driver / CUDA</source>
        <translation>驱动 / CUDA</translation>
    </message>
    <message>
        <source>%1 / CUDA %2</source>
        <translation>%1 / CUDA %2</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>%1 (CUDA %2), cuda.is_available() = %3</source>
        <translation>%1（CUDA %2），cuda.is_available() = %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>解决方法：%1</translation>
    </message>
    <message>
        <source>%1 looks ready.</source>
        <translation>%1 看起来已就绪。</translation>
    </message>
    <message>
        <source>The machine</source>
        <translation>该机器</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) found; each comes with its fix below.</source>
        <translation>
            <numerusform>发现 %n 个问题，下方列出了各自的解决方法。</numerusform>
        </translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Simulated GPU</source>
        <translation>模拟 GPU</translation>
    </message>
    <message>
        <source>This nvidia-smi is the Gantry sandbox&apos;s stand-in: the GPU below is simulated, not real hardware. Verify and Doctor measure nothing on it.</source>
        <translation>此 nvidia-smi 是 Gantry 沙盒的替身：下面的 GPU 是模拟的，不是真实硬件。验证和诊断不会在它上面测量任何东西。</translation>
    </message>
    <message>
        <source>%1 (simulated GPU)</source>
        <translation>%1（模拟 GPU）</translation>
    </message>
    <message>
        <source>%1 is ready, with a simulated GPU (Gantry sandbox).</source>
        <translation>%1 已就绪，带有模拟 GPU（Gantry 沙盒）。</translation>
    </message>
    <message>
        <source>none (see the problem below)</source>
        <translation>无（见下方问题）</translation>
    </message>
</context>
<context>
    <name>gantry::ui::PriceTableModel</name>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>none now</source>
        <translation>当前无库存</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>VRAM/GPU</source>
        <translation>单卡显存</translation>
    </message>
    <message>
        <source>vCPUs</source>
        <translation>vCPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>$/h</source>
        <translation>$/h</translation>
    </message>
    <message>
        <source>$/GPU-h</source>
        <translation>$/GPU-h</translation>
    </message>
    <message>
        <source>Capacity now</source>
        <translation>当前库存</translation>
    </message>
    <message>
        <source>Reliability %1%, DLPerf %2, %3/%4 Mbit/s up/down, CUDA ≤ %5</source>
        <translation>可靠性 %1%，DLPerf %2，上行/下行 %3/%4 Mbit/s，CUDA ≤ %5</translation>
    </message>
    <message>
        <source>%1 · median $%2</source>
        <translation>%1 个 · 中位价 $%2</translation>
    </message>
    <message>
        <source>%1% reliable</source>
        <translation>可靠性 %1%</translation>
    </message>
    <message>
        <source>Offers</source>
        <translation>报价</translation>
    </message>
    <message>
        <source>⚠ %1 (failed Verify)</source>
        <translation>⚠ %1（验证未通过）</translation>
    </message>
    <message numerus="yes">
        <source>Flagged: machine failed Verify or Doctor %n time(s), last on %1: %2. Once the host has fixed it, right-click → “Forget this machine&apos;s record…” clears it.</source>
        <translation>
            <numerusform>已标记：这台机器验证或诊断失败 %n 次，最近一次在 %1：%2。主机修复后，右键 →“忘记这台机器的记录…”可清除标记。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gantry::ui::PricesPanel</name>
    <message>
        <source>Available now</source>
        <translation>仅显示有库存</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>GPU model, e.g. H100</source>
        <translation>GPU 型号，例如 H100</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>VRAM ≥ </source>
        <translation>显存 ≥ </translation>
    </message>
    <message>
        <source>≤ $</source>
        <translation>≤ $</translation>
    </message>
    <message>
        <source>/h</source>
        <translation>/h</translation>
    </message>
    <message>
        <source>any price</source>
        <translation>不限价格</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>创建…</translation>
    </message>
    <message>
        <source>Refreshing… (showing prices from %1)</source>
        <translation>正在刷新…（当前显示 %1 的价格）</translation>
    </message>
    <message>
        <source>Loading prices…</source>
        <translation>正在加载价格…</translation>
    </message>
    <message>
        <source>Never refreshed</source>
        <translation>从未刷新</translation>
    </message>
    <message>
        <source>Updated just now</source>
        <translation>刚刚更新</translation>
    </message>
    <message numerus="yes">
        <source>Updated %n min ago</source>
        <translation>
            <numerusform>%n 分钟前更新</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Updated %n h ago</source>
        <translation>
            <numerusform>%n 小时前更新</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Updated %n days ago — refresh for current prices</source>
        <translation>
            <numerusform>%n 天前更新 — 请刷新以获取最新价格</numerusform>
        </translation>
    </message>
    <message>
        <source>Every offer</source>
        <translation>显示每个报价</translation>
    </message>
    <message>
        <source>Marketplaces such as Vast.ai list single machines. Grouped, each row is one GPU model and count with its cheapest and median price; tick to see every machine with its reliability.</source>
        <translation>Vast.ai 等市场列出的是单台机器。分组时每行代表一种 GPU 型号和数量，显示最低价和中位价；勾选后可查看每台机器及其可靠性。</translation>
    </message>
    <message>
        <source>Notify me</source>
        <translation>有货提醒</translation>
    </message>
    <message>
        <source>Watch every provider for the selected GPU model and count at this price per GPU-hour or less, and tell you the moment one is free.</source>
        <translation>在所有云服务商中监视所选 GPU 型号和数量（每 GPU 每小时不高于此价格），一有空闲立即提醒你。</translation>
    </message>
    <message>
        <source>Select a row to be told when that GPU is free at that price or less.</source>
        <translation>选择一行，当该 GPU 以不高于该价格的价格空闲时会提醒你。</translation>
    </message>
    <message>
        <source>Stopped watching.</source>
        <translation>已停止监视。</translation>
    </message>
    <message>
        <source>%1 ×%2 at $%3 per GPU-hour or less</source>
        <translation>%1 ×%2，每 GPU 每小时不高于 $%3</translation>
    </message>
    <message>
        <source>Available now: %1 on %2 at $%3/h.</source>
        <translation>现在有货：%2 上的 %1，$%3/h。</translation>
    </message>
    <message>
        <source>Watching for %1…</source>
        <translation>正在监视 %1…</translation>
    </message>
    <message>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <source>Launch when available</source>
        <translation>有货即启动</translation>
    </message>
    <message>
        <source>Copy headless command</source>
        <translation>复制无界面命令</translation>
    </message>
    <message>
        <source>Watch like Notify me, and rent the first match with Gantry&apos;s SSH key while Gantry runs; the new machine is connected as after Launch…. It stops after one launch.</source>
        <translation>与“通知我”一样监视，并在 Gantry 运行期间用 Gantry 的 SSH 密钥租下第一个匹配项；新机器会像通过“启动…”那样自动连接。启动一次后即停止。</translation>
    </message>
    <message>
        <source>Copy the gantry-cli watch-capacity command that does the same without the app, for a server or a terminal that stays open. Nothing is written to disk.</source>
        <translation>复制在不打开应用时完成同样工作的 gantry-cli watch-capacity 命令，可在服务器或保持打开的终端中运行。不会向磁盘写入任何文件。</translation>
    </message>
    <message>
        <source>Uploading Gantry&apos;s SSH key…</source>
        <translation>正在上传 Gantry 的 SSH 密钥…</translation>
    </message>
    <message>
        <source>No provider took Gantry&apos;s SSH key, so nothing can be launched: %1</source>
        <translation>没有任何服务商接受 Gantry 的 SSH 密钥，因此无法启动：%1</translation>
    </message>
    <message>
        <source>Watching for %1, to launch it…</source>
        <translation>正在监视 %1，有货即启动…</translation>
    </message>
    <message>
        <source>Launching %1 on %2 at $%3/h…</source>
        <translation>正在 %2 上启动 %1，$%3/小时…</translation>
    </message>
    <message>
        <source>%1 Trying again.</source>
        <translation>%1 正在重试。</translation>
    </message>
    <message>
        <source>Launched %1 on %2 at $%3/h; connecting when it is up.</source>
        <translation>已在 %2 上启动 %1，$%3/小时；就绪后将自动连接。</translation>
    </message>
    <message>
        <source>Copied to the clipboard; paste it in a terminal that stays open (it keeps watching without Gantry): %1</source>
        <translation>已复制到剪贴板；请粘贴到保持打开的终端中运行（关闭 Gantry 后它仍会继续监视）：%1</translation>
    </message>
    <message>
        <source>Show flagged machines</source>
        <translation>显示已标记的机器</translation>
    </message>
    <message>
        <source>Offers on machines that failed Verify or Doctor (see the Verify tab&apos;s machine records) are hidden; tick to show them, marked, one row each.</source>
        <translation>验证或诊断未通过的机器（见“验证”标签页的机器记录）上的报价已隐藏；勾选后会带标记显示，每台一行。</translation>
    </message>
    <message numerus="yes">
        <source>Show flagged machines (%n hidden)</source>
        <translation>
            <numerusform>显示已标记的机器（已隐藏 %n 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>Forget this machine&apos;s record…</source>
        <translation>忘记这台机器的记录…</translation>
    </message>
    <message>
        <source>the %1 machine %2 of %3</source>
        <translation>%3 的 %1 机器 %2</translation>
    </message>
</context>
<context>
    <name>gantry::ui::RemoteDirModel</name>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>链接</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
</context>
<context>
    <name>gantry::ui::ReputationModel</name>
    <message>
        <source>own host</source>
        <translation>自有主机</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 machine %2 (%3)</source>
        <translation>%1 机器 %2（%3）</translation>
    </message>
    <message>
        <source>Flagged: %1</source>
        <translation>已标记：%1</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>%1
Last run %2: %3</source>
        <translation>%1
最近一次运行 %2：%3</translation>
    </message>
    <message>
        <source>Memory bandwidth per GPU, measured / datasheet, GB/s</source>
        <translation>每块 GPU 的显存带宽，实测 / 规格书，GB/s</translation>
    </message>
    <message>
        <source>Dense tensor throughput of all GPUs, measured / datasheet, TFLOPS</source>
        <translation>所有 GPU 的稠密张量算力，实测 / 规格书，TFLOPS</translation>
    </message>
    <message>
        <source>The hourly price divided by the measured tensor TFLOPS</source>
        <translation>每小时价格除以实测张量 TFLOPS</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>GB/s (spec)</source>
        <translation>GB/s（规格）</translation>
    </message>
    <message>
        <source>TFLOPS (spec)</source>
        <translation>TFLOPS（规格）</translation>
    </message>
    <message>
        <source>$/TFLOP-h</source>
        <translation>$/TFLOP·时</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Not verified</source>
        <translation>未验证</translation>
    </message>
    <message>
        <source>No run has measured this machine yet (a simulated GPU never passes).</source>
        <translation>还没有任何一次运行测量过这台机器（模拟 GPU 永远不会通过）。</translation>
    </message>
    <message>
        <source>Its offers are hidden from Prices (tick “Show flagged machines” to see them); a passing Verify, or “Forget this record…” beside the list, clears the flag.</source>
        <translation>它的报价在“价格”中已隐藏（勾选“显示已标记的机器”可查看）；一次通过的验证，或列表旁的“忘记这条记录…”，会清除标记。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::RunAttemptsModel</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>被抢占</translation>
    </message>
    <message>
        <source>outbid</source>
        <translation>出价被超</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>%1 (spot) · %2</source>
        <translation>%1（竞价）· %2</translation>
    </message>
    <message>
        <source>$%1/h</source>
        <translation>$%1/小时</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Why it ended</source>
        <translation>结束原因</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>node %1 · %2</source>
        <translation>节点 %1 · %2</translation>
    </message>
</context>
<context>
    <name>gantry::ui::RunJobDialog</name>
    <message>
        <source>Run a job</source>
        <translation>运行任务</translation>
    </message>
    <message>
        <source>python train.py --epochs 10</source>
        <translation>python train.py --epochs 10</translation>
    </message>
    <message>
        <source>from the command, e.g. train-20261130-164500</source>
        <translation>根据命令生成，例如 train-20261130-164500</translation>
    </message>
    <message>
        <source>home directory; e.g. ~/project</source>
        <translation>主目录；例如 ~/project</translation>
    </message>
    <message>
        <source>one KEY=VALUE per line, e.g. CUDA_VISIBLE_DEVICES=0</source>
        <translation>每行一个 KEY=VALUE，例如 CUDA_VISIBLE_DEVICES=0</translation>
    </message>
    <message>
        <source>a virtualenv to activate, e.g. ~/venv</source>
        <translation>要激活的 virtualenv，例如 ~/venv</translation>
    </message>
    <message>
        <source>a conda environment to activate</source>
        <translation>要激活的 conda 环境</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>命令(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Working directory:</source>
        <translation>工作目录(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation>环境变量(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Virtualenv:</source>
        <translation>Virtualenv(&amp;V)：</translation>
    </message>
    <message>
        <source>C&amp;onda env:</source>
        <translation>Conda 环境(&amp;O)：</translation>
    </message>
    <message>
        <source>The job runs in tmux (or screen, or nohup) on the machine and keeps running when Gantry closes or the connection drops.</source>
        <translation>任务在机器上的 tmux（或 screen、nohup）中运行，关闭 Gantry 或连接断开后仍会继续运行。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
</context>
<context>
    <name>gantry::ui::RunListModel</name>
    <message>
        <source>launching</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>syncing</source>
        <translation>同步中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>recovering</source>
        <translation>恢复中</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 (no process drives it)</source>
        <translation>%1（无进程驱动）</translation>
    </message>
    <message>
        <source>no checkpoint</source>
        <translation>无检查点</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>尚无</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>累计费用</translation>
    </message>
    <message>
        <source>Checkpoint age</source>
        <translation>检查点时间</translation>
    </message>
</context>
<context>
    <name>gantry::ui::RunsPanel</name>
    <message>
        <source>New run…</source>
        <translation>新建运行…</translation>
    </message>
    <message>
        <source>Stop…</source>
        <translation>停止…</translation>
    </message>
    <message>
        <source>No runs yet. New run… starts a training run from a folder; it survives losing its machine (`gantry-cli run start SPEC.yaml` does the same from a terminal).</source>
        <translation>还没有运行。“新建运行…”从一个文件夹启动训练运行；即使失去机器，运行也会继续（在终端中用 `gantry-cli run start SPEC.yaml` 效果相同）。</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Select a run to see its attempts and log.</source>
        <translation>选择一个运行以查看其尝试和日志。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2</translation>
    </message>
    <message>
        <source>Checkpoints: %1</source>
        <translation>检查点：%1</translation>
    </message>
    <message>
        <source>Results: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <source>Stop run</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <source>Stop run %1? Its job stops, its checkpoint comes home and its machine is terminated.</source>
        <translation>停止运行 %1？其作业将停止，检查点会取回本地，机器将被终止。</translation>
    </message>
    <message>
        <source>Keep the machine running (it keeps billing)</source>
        <translation>保持机器运行（会继续计费）</translation>
    </message>
    <message>
        <source>The selected run&apos;s events appear here as they happen.</source>
        <translation>所选运行的事件会在发生时显示在这里。</translation>
    </message>
    <message>
        <source>GPU energy: %1</source>
        <translation>GPU 耗电：%1</translation>
    </message>
    <message>
        <source>spent while the GPUs were under 30 %: %1</source>
        <translation>GPU 利用率低于 30% 时花费：%1</translation>
    </message>
</context>
<context>
    <name>gantry::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Accounts</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>~/.ssh/id_ed25519 (agent and usual keys when empty)</source>
        <translation>~/.ssh/id_ed25519（留空则使用代理和常用密钥）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Default SSH key</source>
        <translation>默认 SSH 密钥</translation>
    </message>
    <message>
        <source>Notify me</source>
        <translation>通知我</translation>
    </message>
    <message>
        <source>Stop the instance</source>
        <translation>将实例关机</translation>
    </message>
    <message>
        <source>Terminate the instance</source>
        <translation>释放实例</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>无预算</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>When GPUs are idle</source>
        <translation>GPU 空闲时</translation>
    </message>
    <message>
        <source>Idle for</source>
        <translation>空闲时长</translation>
    </message>
    <message>
        <source>Countdown before acting</source>
        <translation>执行前倒计时</translation>
    </message>
    <message>
        <source>Daily budget</source>
        <translation>每日预算</translation>
    </message>
    <message>
        <source>Monthly budget</source>
        <translation>每月预算</translation>
    </message>
    <message>
        <source>Language (after a restart)</source>
        <translation>语言（重启后生效）</translation>
    </message>
    <message>
        <source>Offer the acceptance test</source>
        <translation>提示运行验收测试</translation>
    </message>
    <message>
        <source>Run the acceptance test at once</source>
        <translation>立即运行验收测试</translation>
    </message>
    <message>
        <source>Nothing</source>
        <translation>不做任何事</translation>
    </message>
    <message>
        <source>After a launch</source>
        <translation>启动实例后</translation>
    </message>
</context>
<context>
    <name>gantry::ui::StorageCopies</name>
    <message numerus="yes">
        <source>%n file(s) copied, %1, each checked.</source>
        <translation>
            <numerusform>已复制 %n 个文件，%1，均已校验。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n object(s) left out: their names would leave the folder.</source>
        <translation>
            <numerusform>略过了 %n 个对象：它们的名称会跳出目标文件夹。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) copied straight from %1 to %2, each checked on both.</source>
        <translation>
            <numerusform>已从 %1 直接复制 %n 个文件到 %2，每个文件都在两端校验过。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) copied through this computer, each checked on both machines: %1</source>
        <translation>
            <numerusform>已经由本机复制 %n 个文件，每个文件都在两台机器上校验过：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 file(s) copied straight from %2 to %3 and %4 through this computer, each checked on both machines: %5</source>
        <translation>已从 %2 直接复制 %1 个文件到 %3，另有 %4 个经由本机中转，每个文件都在两台机器上校验过：%5</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) already there with the same checksum were skipped.</source>
        <translation>
            <numerusform>已跳过 %n 个校验和相同、已存在的文件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) went on from an interrupted copy.</source>
        <translation>
            <numerusform>%n 个文件从中断的复制处继续。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of them by size only: the storage keeps no checksum for them.</source>
        <translation>
            <numerusform>其中 %n 个只按大小校验：存储端没有保存它们的校验和。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gantry::ui::StoragePanel</name>
    <message>
        <source>Buckets</source>
        <translation>存储桶</translation>
    </message>
    <message>
        <source>Add bucket…</source>
        <translation>添加存储桶…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Gantry forgets the bucket and its stored keys; the bucket and its objects stay where they are.</source>
        <translation>Gantry 会忘记此存储桶及其保存的密钥；存储桶和其中的对象保持原样。</translation>
    </message>
    <message>
        <source>No buckets yet: Add bucket… connects one (AWS S3, R2, B2, MinIO, Wasabi, OSS, COS).</source>
        <translation>还没有存储桶：用“添加存储桶…”连接一个（AWS S3、R2、B2、MinIO、Wasabi、OSS、COS）。</translation>
    </message>
    <message>
        <source>Remove bucket</source>
        <translation>移除存储桶</translation>
    </message>
    <message>
        <source>Forget the bucket &quot;%1&quot; and its stored keys? The bucket and its objects stay at the provider; add it again to use it.</source>
        <translation>要忘记存储桶“%1”及其保存的密钥吗？存储桶和其中的对象仍留在服务商处；要再使用请重新添加。</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Copy between machines</source>
        <translation>在机器之间复制</translation>
    </message>
    <message>
        <source>Copy %1 from %2 to %3.</source>
        <translation>将 %1 从 %2 复制到 %3。</translation>
    </message>
    <message>
        <source>A folder on %1; ~/ is its home folder. It is made when missing.</source>
        <translation>%1 上的文件夹；~/ 是它的主目录。不存在时会自动创建。</translation>
    </message>
    <message>
        <source>Into folder:</source>
        <translation>目标文件夹：</translation>
    </message>
    <message>
        <source>%1 sends the files straight to %2 over SSH, with a key made for this copy alone and removed afterwards; where it cannot reach %2 they pass through this computer. Every file is checked on both machines.</source>
        <translation>%1 通过 SSH 直接把文件发送到 %2，使用仅为这次复制生成、复制后即删除的密钥；%1 无法连到 %2 时，文件经由本机中转。每个文件都在两台机器上校验。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>%1:%2 → %3:%4</source>
        <translation>%1:%2 → %3:%4</translation>
    </message>
</context>
<context>
    <name>gantry::ui::SyncDialog</name>
    <message>
        <source>Delete files on the machine that were deleted here (only files an earlier sync sent)</source>
        <translation>删除机器上已在本地删除的文件（仅限之前同步发送过的文件）</translation>
    </message>
    <message>
        <source>Keep in sync while Gantry runs</source>
        <translation>Gantry 运行期间保持同步</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Start sync</source>
        <translation>开始同步</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Sync a local folder to %1</source>
        <translation>将本地文件夹同步到 %1</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>The folder on this computer to send</source>
        <translation>要发送的本机文件夹</translation>
    </message>
    <message>
        <source>Local folder:</source>
        <translation>本地文件夹：</translation>
    </message>
    <message>
        <source>Folder on %1:</source>
        <translation>%1 上的文件夹：</translation>
    </message>
    <message>
        <source>Sends each change within a second of saving it, until you turn this off. Resumes when Gantry starts again.</source>
        <translation>每次保存后一秒内发送改动，直到关闭此选项。Gantry 再次启动时会自动恢复。</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Choose a folder, then Preview to see what would be sent. Files ignored by .gitignore, .gantryignore and the .git folder are left out.</source>
        <translation>选择一个文件夹，然后点击“预览”查看将发送的内容。被 .gitignore、.gantryignore 忽略的文件以及 .git 文件夹不会发送。</translation>
    </message>
    <message>
        <source>%v of %m files</source>
        <translation>%v / %m 个文件</translation>
    </message>
    <message>
        <source>Folder to sync to %1</source>
        <translation>要同步到 %1 的文件夹</translation>
    </message>
    <message>
        <source>Choose the local folder to sync first.</source>
        <translation>请先选择要同步的本地文件夹。</translation>
    </message>
    <message>
        <source>%1 is not a folder on this computer. Choose an existing folder.</source>
        <translation>%1 不是本机上的文件夹。请选择一个已存在的文件夹。</translation>
    </message>
    <message>
        <source>Give the folder on %1 to sync into.</source>
        <translation>请填写要同步到的 %1 上的文件夹。</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Comparing %1 with the machine…</source>
        <translation>正在将 %1 与机器上的内容比较…</translation>
    </message>
    <message>
        <source>Syncing %1…</source>
        <translation>正在同步 %1…</translation>
    </message>
    <message>
        <source>%1 new, %2 changed, %3 to delete; %4 to send (%5 unchanged).</source>
        <translation>新增 %1 个，更改 %2 个，待删除 %3 个；需发送 %4（%5 个未变）。</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>已更改</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Preview stopped.</source>
        <translation>预览已停止。</translation>
    </message>
    <message>
        <source>Stopped. What was sent is complete on the machine; the rest is sent next time.</source>
        <translation>已停止。已发送的文件在机器上是完整的；其余的将在下次同步时发送。</translation>
    </message>
    <message>
        <source>Nothing to send: the machine has this folder as it is here.</source>
        <translation>无需发送：机器上的该文件夹与本地一致。</translation>
    </message>
    <message numerus="yes">
        <source>Synced: %n file(s) sent (%1).</source>
        <translation>
            <numerusform>已同步：发送了 %n 个文件（%1）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Keeping it in sync while Gantry runs.</source>
        <translation>Gantry 运行期间将保持同步。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>gantry::ui::SyncStrip</name>
    <message>
        <source>Sync %1 → %2</source>
        <translation>同步 %1 → %2</translation>
    </message>
    <message>
        <source>Keep in sync</source>
        <translation>保持同步</translation>
    </message>
    <message>
        <source>Sync now…</source>
        <translation>立即同步…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Not kept in sync</source>
        <translation>未保持同步</translation>
    </message>
    <message>
        <source>Syncing…</source>
        <translation>正在同步…</translation>
    </message>
    <message>
        <source>In sync (%1); watching for changes</source>
        <translation>已同步（%1）；正在监视改动</translation>
    </message>
    <message>
        <source>Sync failed: %1</source>
        <translation>同步失败：%1</translation>
    </message>
</context>
<context>
    <name>gantry::ui::TorchrunDialog</name>
    <message>
        <source>torchrun on %1</source>
        <translation>在 %1 上运行 torchrun</translation>
    </message>
    <message>
        <source>train.py</source>
        <translation>train.py</translation>
    </message>
    <message>
        <source>--epochs 3 --lr 3e-4</source>
        <translation>--epochs 3 --lr 3e-4</translation>
    </message>
    <message>
        <source>the login directory</source>
        <translation>登录目录</translation>
    </message>
    <message>
        <source>NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=ens5</source>
        <translation>NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=ens5</translation>
    </message>
    <message>
        <source>auto (GPUs per node)</source>
        <translation>自动（每节点 GPU 数）</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>脚本：</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation>工作目录：</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>环境变量：</translation>
    </message>
    <message>
        <source>Processes per node:</source>
        <translation>每节点进程数：</translation>
    </message>
    <message>
        <source>Rendezvous port:</source>
        <translation>Rendezvous 端口：</translation>
    </message>
    <message numerus="yes">
        <source>Start on %n node(s)</source>
        <translation>
            <numerusform>在 %n 个节点上启动</numerusform>
        </translation>
    </message>
    <message>
        <source>Name the script torchrun starts on every node.</source>
        <translation>请指定 torchrun 在每个节点上启动的脚本。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::TransferQueueModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>Upload</source>
        <translation>上传</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Destination</source>
        <translation>目标位置</translation>
    </message>
    <message>
        <source>Verified: the SHA-256 of the copy matches the original&apos;s.</source>
        <translation>已校验：副本的 SHA-256 与原文件一致。</translation>
    </message>
    <message>
        <source>avg %1/s</source>
        <translation>平均 %1/s</translation>
    </message>
    <message>
        <source>took %1</source>
        <translation>用时 %1</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>已续传</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>已校验</translation>
    </message>
    <message>
        <source>%1 of %2 files</source>
        <translation>%1 / %2 个文件</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>copying…</source>
        <translation>复制中…</translation>
    </message>
</context>
<context>
    <name>gantry::ui::TransfersPanel</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>续传</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation>清除已完成</translation>
    </message>
    <message>
        <source>Destination exists</source>
        <translation>目标已存在</translation>
    </message>
    <message>
        <source>The folder %1 already exists on %2. Files that differ:</source>
        <translation>文件夹 %1 在 %2 上已存在。内容不同的文件：</translation>
    </message>
    <message>
        <source>%1 already exists on %2.</source>
        <translation>%1 在 %2 上已存在。</translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <source>Keep same-size files</source>
        <translation>保留大小相同的文件</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Keep both (rename)</source>
        <translation>保留两者（重命名）</translation>
    </message>
    <message>
        <source>%1 running, %2 waiting, %3 failed</source>
        <translation>%1 个进行中，%2 个等待中，%3 个失败</translation>
    </message>
    <message>
        <source> · %1 of %2</source>
        <translation> · %1 / %2</translation>
    </message>
    <message>
        <source> · %1/s · %2 left</source>
        <translation> · %1/s · 剩余 %2</translation>
    </message>
    <message>
        <source>Transfers are still running. Stop them? Unfinished transfers resume when Gantry starts again.</source>
        <translation>仍有传输正在进行。要停止吗？未完成的传输将在 Gantry 下次启动时续传。</translation>
    </message>
    <message>
        <source>Transfers to %1 are still running. Stop them? Files not yet transferred will be missing if the machine is terminated.</source>
        <translation>与 %1 之间的传输仍在进行。要停止吗？如果释放该机器，尚未传输的文件将会丢失。</translation>
    </message>
    <message>
        <source>Transfers pending</source>
        <translation>传输未完成</translation>
    </message>
    <message>
        <source>Upload</source>
        <translation>上传</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Open local folder</source>
        <translation>打开本地文件夹</translation>
    </message>
    <message>
        <source>Show on the machine</source>
        <translation>在机器上显示</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Remove from list</source>
        <translation>从列表中移除</translation>
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
        <translation>通过</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>gantry::ui::VerifyResultsModel</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试项</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>预期值</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比率</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
</context>
<context>
    <name>gantry::ui::VerifyTab</name>
    <message>
        <source>Run verification</source>
        <translation>运行验证</translation>
    </message>
    <message>
        <source>Upload Gantry&apos;s GPU test program and run it for about a minute</source>
        <translation>上传 Gantry 的 GPU 测试程序并运行约一分钟</translation>
    </message>
    <message>
        <source>Quick</source>
        <translation>快速</translation>
    </message>
    <message>
        <source>A shorter run (about 15 s): identity, bandwidth and compute rates</source>
        <translation>较短的测试（约 15 秒）：型号识别、带宽和算力</translation>
    </message>
    <message>
        <source>Doctor</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>Check the driver, PyTorch, disk, ECC, clocks and PCIe, with fixes</source>
        <translation>检查驱动、PyTorch、磁盘、ECC、频率和 PCIe，并给出解决方法</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Select a machine and connect to verify its GPUs.</source>
        <translation>选择一台机器并连接，即可验证其 GPU。</translation>
    </message>
    <message>
        <source>Spec comparison and findings appear here after a run.</source>
        <translation>运行后将在此显示规格对比和检查结果。</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Ready to verify %1.</source>
        <translation>已准备好验证 %1。</translation>
    </message>
    <message>
        <source>Connect to %1 to verify its GPUs.</source>
        <translation>连接 %1 以验证其 GPU。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Running Doctor…</source>
        <translation>正在运行诊断…</translation>
    </message>
    <message>
        <source>Doctor found no blocking problem.</source>
        <translation>诊断未发现阻碍性问题。</translation>
    </message>
    <message numerus="yes">
        <source>Doctor found %n problem(s); each row says how to fix it.</source>
        <translation>
            <numerusform>诊断发现 %n 个问题，每行都列出了解决方法。</numerusform>
        </translation>
    </message>
    <message>
        <source>How: %1 — %2</source>
        <translation>方法：%1 — %2</translation>
    </message>
    <message>
        <source>GPU %1 vs %2 spec: memory bandwidth %3, FP32 %4, tensor %5 of the datasheet</source>
        <translation>GPU %1 与 %2 规格对比：显存带宽为标称值的 %3，FP32 为 %4，Tensor 为 %5</translation>
    </message>
    <message>
        <source>Cost: $%1 per measured tensor TFLOPS-hour</source>
        <translation>费用：按实测 Tensor 算力计，每 TFLOPS 每小时 $%1</translation>
    </message>
    <message>
        <source>Finished in %1 s.</source>
        <translation>用时 %1 秒完成。</translation>
    </message>
    <message>
        <source>, %1 GB/s</source>
        <translation>，%1 GB/s</translation>
    </message>
    <message>
        <source>, %1 TFLOPS</source>
        <translation>，%1 TFLOPS</translation>
    </message>
    <message>
        <source>, $%1/TFLOPS-h</source>
        <translation>，$%1/TFLOPS-h</translation>
    </message>
    <message>
        <source>%1 via %2</source>
        <translation>%1（通过 %2）</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>ERROR: no GPU was tested</source>
        <translation>错误：没有测试任何 GPU</translation>
    </message>
    <message>
        <source>See Doctor below for the cause and the fix.</source>
        <translation>原因和解决方法见下方诊断。</translation>
    </message>
    <message>
        <source>No GPU could be tested.</source>
        <translation>没有可测试的 GPU。</translation>
    </message>
    <message>
        <source>Nothing was measured, so there is nothing to compare.</source>
        <translation>未进行任何测量，因此没有可对比的内容。</translation>
    </message>
    <message>
        <source>This host&apos;s latest runs, newest first</source>
        <translation>这台主机最近的运行，最新的在前</translation>
    </message>
    <message>
        <source>Every machine Verify or Doctor has run on: a failed one is flagged and its offers are hidden from Prices</source>
        <translation>运行过验证或诊断的每台机器：未通过的会被标记，其报价在“价格”中隐藏</translation>
    </message>
    <message>
        <source>Machine records</source>
        <translation>机器记录</translation>
    </message>
    <message>
        <source>Acceptance test</source>
        <translation>验收测试</translation>
    </message>
    <message>
        <source>Keep it or give it back: GPU health and measured figures against what good machines achieve, in about 90 s</source>
        <translation>保留还是退还：约 90 秒内检查 GPU 健康状况，并将实测数据与正常机器的表现对比</translation>
    </message>
    <message>
        <source>Running the acceptance test…</source>
        <translation>正在运行验收测试…</translation>
    </message>
    <message>
        <source>Acceptance test finished.</source>
        <translation>验收测试已完成。</translation>
    </message>
    <message>
        <source>%1  Error: no GPU could be tested</source>
        <translation>%1  错误：没有可测试的 GPU</translation>
    </message>
    <message>
        <source>%1  %2: no GPU was tested</source>
        <translation>%1  %2：没有测试任何 GPU</translation>
    </message>
    <message numerus="yes">
        <source>%1  %2: %n× %3</source>
        <translation>
            <numerusform>%1  %2：%n × %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Forget this record…</source>
        <translation>忘记这条记录…</translation>
    </message>
    <message>
        <source>Clear the chosen machine&apos;s passes, failures and flag: its offers show in Prices again</source>
        <translation>清除所选机器的通过、失败次数和标记：它的报价会重新出现在“价格”中</translation>
    </message>
    <message>
        <source>Forgot the record of %1: it is no longer flagged.</source>
        <translation>已忘记 %1 的记录：它不再被标记。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::VolumeTableModel</name>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 GB (grows with use)</source>
        <translation>%1 GB（随用量增长）</translation>
    </message>
    <message>
        <source>%1 %2/month (%3/GB)</source>
        <translation>每月 %1 %2（每 GB %3）</translation>
    </message>
    <message>
        <source>in use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <source>not attached</source>
        <translation>未挂载</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Attached to</source>
        <translation>挂载到</translation>
    </message>
</context>
<context>
    <name>gantry::ui::VolumesView</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Volumes are listed when you press Refresh: RunPod network volumes, Lambda filesystems, Shadeform and Vast.ai volumes. Each bills by the GB-month for as long as it exists.</source>
        <translation>按“刷新”即可列出各服务商的卷：RunPod 网络卷、Lambda 文件系统、Shadeform 和 Vast.ai 的卷。每个卷只要存在，就按每 GB 每月计费。</translation>
    </message>
    <message>
        <source>Asking the providers for their volumes…</source>
        <translation>正在向服务商查询卷…</translation>
    </message>
    <message>
        <source>No volumes at the providers with an API key.</source>
        <translation>已配置 API 密钥的服务商那里没有卷。</translation>
    </message>
    <message numerus="yes">
        <source>%n volume(s), about %1 a month together while they exist.</source>
        <translation>
            <numerusform>%n 个卷，存在期间合计每月约 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete volume</source>
        <translation>删除卷</translation>
    </message>
    <message>
        <source>Delete %1 at %2? %3</source>
        <translation>删除 %2 上的 %1？%3</translation>
    </message>
    <message>
        <source>Deleting %1…</source>
        <translation>正在删除 %1…</translation>
    </message>
    <message>
        <source>Deleted %1; it no longer bills.</source>
        <translation>已删除 %1，不再计费。</translation>
    </message>
    <message>
        <source>Volumes</source>
        <translation>卷</translation>
    </message>
</context>
<context>
    <name>gantry::ui::WelcomePage</name>
    <message>
        <source>Welcome to Gantry</source>
        <translation>欢迎使用 Gantry</translation>
    </message>
    <message>
        <source>Gantry rents, checks and watches GPU machines, and moves your files to them. Start with one of these:</source>
        <translation>Gantry 可以租用、检查和监控 GPU 机器，并把你的文件传到上面。从以下任一方式开始：</translation>
    </message>
    <message>
        <source>Try the local sandbox</source>
        <translation>试用本地沙盒</translation>
    </message>
    <message>
        <source>Starts a free practice machine on this computer (with a simulated GPU where available) and opens it: nothing is rented, nothing is billed.</source>
        <translation>在本机启动一台免费的练习机器（可用时带模拟 GPU）并打开它：不租用任何资源，也不产生任何费用。</translation>
    </message>
    <message>
        <source>ssh -p 22 root@gpu.example.com</source>
        <translation>ssh -p 22 root@gpu.example.com</translation>
    </message>
    <message>
        <source>Add an SSH host…</source>
        <translation>添加 SSH 主机…</translation>
    </message>
    <message>
        <source>Any machine you can reach with ssh: paste the login command your provider shows.</source>
        <translation>任何可以用 ssh 访问的机器：粘贴云服务商提供的登录命令即可。</translation>
    </message>
    <message>
        <source>Import ~/.ssh/config</source>
        <translation>导入 ~/.ssh/config</translation>
    </message>
    <message>
        <source>Adds the hosts you already use with ssh.</source>
        <translation>添加你已在 ssh 中使用的主机。</translation>
    </message>
    <message>
        <source>Connect a cloud account…</source>
        <translation>连接云账户…</translation>
    </message>
    <message>
        <source>Add a Lambda or RunPod API key to see their prices and launch machines from here.</source>
        <translation>添加 Lambda 或 RunPod 的 API 密钥，即可在这里查看价格并创建机器。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::AlertsPanel</name>
    <message>
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>警报</translation>
    </message>
    <message>
        <source>Remove the alerts shown; conditions that still hold are not reported again until they clear</source>
        <translation>移除显示的警报；仍然存在的情况在解除之前不会再次报告</translation>
    </message>
    <message>
        <source>No alerts. Gantry warns here when the GPUs idle while billing or wait on their input, memory runs full, a GPU throttles or reports errors.</source>
        <translation>没有警报。当 GPU 在计费期间空闲或等待输入、显存将满、GPU 降频或报告错误时，Gantry 会在这里提醒。</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::ChartFacts</name>
    <message>
        <source>limit %1 W</source>
        <translation>上限 %1 W</translation>
    </message>
    <message>
        <source>max %1 MHz</source>
        <translation>最高 %1 MHz</translation>
    </message>
    <message>
        <source>power limit</source>
        <translation>功率上限</translation>
    </message>
    <message>
        <source>maximum SM clock</source>
        <translation>最高 SM 频率</translation>
    </message>
    <message>
        <source>Clocks held back: %1 (GPU %2)</source>
        <translation>频率受限：%1（GPU %2）</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>not reported by the driver</source>
        <translation>驱动未报告</translation>
    </message>
    <message>
        <source>price unknown</source>
        <translation>价格未知</translation>
    </message>
    <message>
        <source>Energy since monitoring began: %1 · GPUs under 30 % utilization: %2 (%3)</source>
        <translation>自开始监控以来的能耗：%1 · GPU 利用率低于 30 % 的时长：%2（%3）</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::ChartScale</name>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>-%1 s</source>
        <translation>-%1 秒</translation>
    </message>
    <message>
        <source>-%1 min</source>
        <translation>-%1 分钟</translation>
    </message>
    <message>
        <source>-%1 h</source>
        <translation>-%1 小时</translation>
    </message>
    <message>
        <source>B/s</source>
        <translation>B/s</translation>
    </message>
    <message>
        <source>KB/s</source>
        <translation>KB/s</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::FleetOverview</name>
    <message>
        <source>No machine is being monitored. Connect to one to see it here.</source>
        <translation>当前没有监控任何机器。连接一台机器后即可在此查看。</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>CPU %1</source>
        <translation>CPU %1</translation>
    </message>
    <message>
        <source>Sort by name</source>
        <translation>按名称排序</translation>
    </message>
    <message>
        <source>Idle GPUs first</source>
        <translation>空闲 GPU 优先</translation>
    </message>
    <message>
        <source>Most expensive first</source>
        <translation>最贵优先</translation>
    </message>
    <message numerus="yes">
        <source>%n machine(s)</source>
        <translation>
            <numerusform>%n 台机器</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 块 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n idle</source>
        <translation>
            <numerusform>%n 块空闲</numerusform>
        </translation>
    </message>
    <message>
        <source>$%1/h</source>
        <translation>$%1/小时</translation>
    </message>
    <message>
        <source>live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
    <message>
        <source>no recent sample</source>
        <translation>近期无采样</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>正在重连</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>not monitoring</source>
        <translation>未在监控</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>RAM %1</source>
        <translation>内存 %1</translation>
    </message>
    <message>
        <source>%1 GPU %2 (%3)</source>
        <translation>%1 GPU %2（%3）</translation>
    </message>
    <message>
        <source>%1: double-click to open</source>
        <translation>%1：双击打开</translation>
    </message>
    <message>
        <source>Other machines</source>
        <translation>其他机器</translation>
    </message>
    <message numerus="yes">
        <source>Cluster %1 · %n node(s)</source>
        <translation>
            <numerusform>集群 %1 · %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>launched %1 ago</source>
        <translation>%1前启动</translation>
    </message>
    <message>
        <source>OS up %1</source>
        <translation>系统已运行 %1</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::GpuNowPanel</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>%1 / %2 %3</source>
        <translation>%1 / %2 %3</translation>
    </message>
    <message>
        <source>%1 / %2 W</source>
        <translation>%1 / %2 W</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Utilization</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Temp.</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>%1 % · %2 %</source>
        <translation>%1 % · %2 %</translation>
    </message>
    <message>
        <source>GPM: SM activity %1 %, SM occupancy %2 %, tensor activity %3 %, DRAM activity %4 %</source>
        <translation>GPM：SM 活跃度 %1 %，SM 占用率 %2 %，Tensor 活跃度 %3 %，显存（DRAM）活跃度 %4 %</translation>
    </message>
    <message>
        <source>SM · Tensor</source>
        <translation>SM · Tensor</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::GuardPanel</name>
    <message>
        <source>Idle guard on the instance:</source>
        <translation>实例上的空闲守护：</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>A small program on the machine that stops it after it has been idle, with credentials that can stop only that machine, so it stops even while this computer sleeps or is offline. Opt-in per machine.</source>
        <translation>机器上的一个小程序：机器空闲一段时间后，用只能停止这台机器的凭据将其停止，因此即使这台电脑休眠或离线，机器也会停止。按机器选择启用。</translation>
    </message>
    <message>
        <source>after </source>
        <translation>空闲 </translation>
    </message>
    <message>
        <source> idle min</source>
        <translation> 分钟后</translation>
    </message>
    <message>
        <source>Idle means every GPU below 5% utilisation, no SSH session and no Gantry job.</source>
        <translation>空闲指每块 GPU 利用率都低于 5%、没有 SSH 会话、也没有 Gantry 作业。</translation>
    </message>
    <message>
        <source>then stop</source>
        <translation>然后停止</translation>
    </message>
    <message>
        <source>then terminate</source>
        <translation>然后终止</translation>
    </message>
    <message>
        <source>Stop keeps the disk (which may still bill); terminate deletes the machine and its disk, so nothing bills any more.</source>
        <translation>停止会保留磁盘（可能仍在计费）；终止会删除机器及其磁盘，之后不再产生任何费用。</translation>
    </message>
    <message>
        <source>Ask the machine how its guard is doing</source>
        <translation>询问机器其守护的运行情况</translation>
    </message>
    <message>
        <source>Select a machine to see its idle guard.</source>
        <translation>选择一台机器以查看其空闲守护。</translation>
    </message>
    <message>
        <source>Not available: %1 Meanwhile, while Gantry runs, the monitor&apos;s “When idle” action stops it.</source>
        <translation>不可用：%1 在此期间，Gantry 运行时由监控的“空闲时”操作来停止它。</translation>
    </message>
    <message numerus="yes">
        <source>On (%n idle minute(s)), as installed earlier; connect to see how it is.</source>
        <translation>
            <numerusform>已启用（空闲 %n 分钟），为之前安装；连接后可查看其状态。</numerusform>
        </translation>
    </message>
    <message>
        <source>Installing the idle guard on %1…</source>
        <translation>正在 %1 上安装空闲守护…</translation>
    </message>
    <message>
        <source>Removing the idle guard from %1…</source>
        <translation>正在从 %1 移除空闲守护…</translation>
    </message>
    <message>
        <source>Asking %1 about its idle guard…</source>
        <translation>正在向 %1 询问其空闲守护…</translation>
    </message>
    <message>
        <source>The idle guard could not be reached: %1</source>
        <translation>无法访问空闲守护：%1</translation>
    </message>
    <message>
        <source>terminates the pod with its own RunPod key</source>
        <translation>用该 Pod 自己的 RunPod 密钥终止它</translation>
    </message>
    <message>
        <source>stops the pod with its own RunPod key</source>
        <translation>用该 Pod 自己的 RunPod 密钥停止它</translation>
    </message>
    <message>
        <source>destroys the instance with its own Vast.ai key (CONTAINER_API_KEY)</source>
        <translation>用该实例自己的 Vast.ai 密钥（CONTAINER_API_KEY）销毁它</translation>
    </message>
    <message>
        <source>stops the instance with its own Vast.ai key (CONTAINER_API_KEY)</source>
        <translation>用该实例自己的 Vast.ai 密钥（CONTAINER_API_KEY）停止它</translation>
    </message>
    <message>
        <source>powers the machine off, which ends its billing</source>
        <translation>将机器关机，从而停止计费</translation>
    </message>
    <message numerus="yes">
        <source>after %n idle minute(s) it %1, never with your account key.</source>
        <translation>
            <numerusform>空闲 %n 分钟后，它会%1，绝不使用你的账户密钥。</numerusform>
        </translation>
    </message>
    <message>
        <source>Off. Once installed, %1</source>
        <translation>未启用。安装后，%1</translation>
    </message>
    <message>
        <source>Installed but not running (the machine restarted?); Install starts it again.</source>
        <translation>已安装但未运行（机器重启过？）；点“安装”可重新启动它。</translation>
    </message>
    <message numerus="yes">
        <source>On: the machine was idle for %n minute(s) and is being stopped.</source>
        <translation>
            <numerusform>已启用：机器已空闲 %n 分钟，正在停止。</numerusform>
        </translation>
    </message>
    <message>
        <source>On: %1 Busy now (%2).</source>
        <translation>已启用：%1 目前忙碌（%2）。</translation>
    </message>
    <message>
        <source>On: %1 Idle for %2 min so far.</source>
        <translation>已启用：%1 目前已空闲 %2 分钟。</translation>
    </message>
    <message>
        <source>Its last stop attempt failed: %1</source>
        <translation>上一次停止尝试失败：%1</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Install (or replace) the guard on the machine with this threshold</source>
        <translation>以此阈值在机器上安装（或替换）守护</translation>
    </message>
    <message>
        <source>Connect to the machine first</source>
        <translation>请先连接到该机器</translation>
    </message>
    <message numerus="yes">
        <source>On: the machine was idle for %n minute(s) and is being terminated.</source>
        <translation>
            <numerusform>已启用：机器已空闲 %n 分钟，正在终止。</numerusform>
        </translation>
    </message>
    <message>
        <source>Waiting for %1&apos;s answer about its idle guard…</source>
        <translation>正在等待 %1 回复其空闲守护的状态…</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::MetricChart</name>
    <message>
        <source>%1: %2 at %3</source>
        <translation>%1：%3 时为 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::MonitorTab</name>
    <message>
        <source>GPU utilization</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>GPU memory used</source>
        <translation>已用显存</translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>GPU 功耗</translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation>SM 频率</translation>
    </message>
    <message>
        <source>Host CPU</source>
        <translation>主机 CPU</translation>
    </message>
    <message>
        <source>Host RAM</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>所有核心</translation>
    </message>
    <message>
        <source>busiest core</source>
        <translation>最忙核心</translation>
    </message>
    <message>
        <source>used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>received</source>
        <translation>接收</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>written</source>
        <translation>写入</translation>
    </message>
    <message>
        <source>Not monitoring: connect to a machine.</source>
        <translation>未在监控：请连接一台机器。</translation>
    </message>
    <message>
        <source>Last 10 minutes</source>
        <translation>最近 10 分钟</translation>
    </message>
    <message>
        <source>Last 3 hours</source>
        <translation>最近 3 小时</translation>
    </message>
    <message>
        <source>Last 48 hours</source>
        <translation>最近 48 小时</translation>
    </message>
    <message>
        <source>When idle: notify</source>
        <translation>空闲时：通知</translation>
    </message>
    <message>
        <source>When idle: stop</source>
        <translation>空闲时：关机</translation>
    </message>
    <message>
        <source>When idle: terminate</source>
        <translation>空闲时：释放</translation>
    </message>
    <message>
        <source>What to do when every GPU of this billing machine has been idle for a while. Stop/terminate wait for a visible countdown you can cancel, and never run while transfers or jobs are active.</source>
        <translation>当这台计费中的机器所有 GPU 都空闲一段时间后要执行的操作。关机/释放前会显示可取消的倒计时，且在有传输或任务进行时绝不会执行。</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Every GPU of %1 is idle: %2 in %3 s.</source>
        <translation>%1 的所有 GPU 均处于空闲：%3 秒后%2。</translation>
    </message>
    <message>
        <source>Idle countdown stopped: %1</source>
        <translation>空闲倒计时已停止：%1</translation>
    </message>
    <message>
        <source>Requested: %1 %2</source>
        <translation>已请求：%1 %2</translation>
    </message>
    <message>
        <source>Not monitoring: select and connect a machine.</source>
        <translation>未在监控：请选择并连接一台机器。</translation>
    </message>
    <message>
        <source>%1: connect to start monitoring.</source>
        <translation>%1：连接后开始监控。</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>No history for this machine yet: connect and let it sample first.</source>
        <translation>该机器暂无历史数据：请先连接并等待采样。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export monitor history</source>
        <translation>导出监控历史</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监控</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Ask the machine again: reconnects the monitor and checks for nvidia-smi (F5)</source>
        <translation>重新询问机器：重新连接监控并检查 nvidia-smi（F5）</translation>
    </message>
    <message>
        <source>No NVIDIA GPU found on this machine (nvidia-smi missing)</source>
        <translation>此机器上未找到 NVIDIA GPU（缺少 nvidia-smi）</translation>
    </message>
    <message>
        <source>Connect to the machine to end a process.</source>
        <translation>连接该机器后才能结束进程。</translation>
    </message>
    <message>
        <source>not monitoring</source>
        <translation>未在监控</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>no recent sample</source>
        <translation>近期无采样</translation>
    </message>
    <message>
        <source>host metrics only</source>
        <translation>仅主机指标</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>正在重连</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Connect to %1 to end a process.</source>
        <translation>连接 %1 后才能结束进程。</translation>
    </message>
    <message>
        <source>The connection to %1 is gone; connect again.</source>
        <translation>与 %1 的连接已断开；请重新连接。</translation>
    </message>
    <message>
        <source>Sent SIG%1 to process %2; the table updates within a few seconds.</source>
        <translation>已向进程 %2 发送 SIG%1；进程表将在几秒内更新。</translation>
    </message>
    <message>
        <source>SM and tensor activity (GPM, Hopper and later): not available here: %1</source>
        <translation>SM 与 Tensor 活跃度（GPM，Hopper 及更新架构）：此处不可用：%1</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::ProcessModel</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>(not visible from this login)</source>
        <translation>（当前登录用户不可见）</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPU memory (MiB)</source>
        <translation>显存 (MiB)</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
</context>
<context>
    <name>gantry::ui::monitor::ProcessPanel</name>
    <message>
        <source>Kill…</source>
        <translation>结束进程…</translation>
    </message>
    <message>
        <source>End the selected process (asks first) (Delete)</source>
        <translation>结束所选进程（会先确认）（Delete）</translation>
    </message>
    <message>
        <source>GPU processes</source>
        <translation>GPU 进程</translation>
    </message>
    <message>
        <source>End process %1?</source>
        <translation>结束进程 %1？</translation>
    </message>
    <message>
        <source>End process %1 on %2?</source>
        <translation>结束 %2 上的进程 %1？</translation>
    </message>
    <message>
        <source>%1
User: %2 · GPU %3 · %4 MiB

SIGTERM lets it clean up (a training loop can save a checkpoint); SIGKILL ends it at once.</source>
        <translation>%1
用户：%2 · GPU %3 · %4 MiB

SIGTERM 让进程自行清理（训练循环可以保存检查点）；SIGKILL 会立即结束它。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>End (SIGTERM)</source>
        <translation>结束（SIGTERM）</translation>
    </message>
    <message>
        <source>Kill (SIGKILL)</source>
        <translation>强制结束（SIGKILL）</translation>
    </message>
    <message>
        <source>Select a process first.</source>
        <translation>请先选择一个进程。</translation>
    </message>
    <message>
        <source>Sending SIG%1 to process %2…</source>
        <translation>正在向进程 %2 发送 SIG%1…</translation>
    </message>
    <message>
        <source>Copy command line</source>
        <translation>复制命令行</translation>
    </message>
    <message>
        <source>Copy PID</source>
        <translation>复制 PID</translation>
    </message>
</context>
<context>
    <name>gantry::uilanguage</name>
    <message>
        <source>Cannot save the language setting in %1; check that the folder is writable.</source>
        <translation>无法在 %1 中保存语言设置；请检查该文件夹是否可写。</translation>
    </message>
</context>
<context>
    <name>gantry::verify</name>
    <message>
        <source>%1 shows %2 MiB of memory; a %3 has about %4 MiB. Part of the memory is missing or reserved: ask the provider, or pick another instance.</source>
        <translation>%1 显示显存为 %2 MiB，而 %3 应有约 %4 MiB。部分显存缺失或被保留：请联系云服务商，或换一台实例。</translation>
    </message>
    <message>
        <source>%1 has %2 SMs; a %3 has %4. It may be a cut-down variant of the chip.</source>
        <translation>%1 有 %2 个 SM，而 %3 应有 %4 个。它可能是该芯片的阉割版。</translation>
    </message>
    <message>
        <source>%1 has a %2-bit memory bus; a %3 has %4 bits.</source>
        <translation>%1 的显存位宽为 %2 bit，而 %3 应为 %4 bit。</translation>
    </message>
    <message>
        <source>%1 is power-capped at %2 W (default %3 W), so it cannot reach full speed. Ask the provider, or run `sudo nvidia-smi -pl %3` if you have root.</source>
        <translation>%1 的功耗上限被限制为 %2 W（默认 %3 W），无法跑满性能。请联系云服务商；如有 root 权限，可运行 `sudo nvidia-smi -pl %3`。</translation>
    </message>
    <message>
        <source>%1&apos;s PCIe link tops out at Gen%2; a %3 supports Gen%4 (the slot or riser limits it).</source>
        <translation>%1 的 PCIe 链路最高只有 Gen%2，而 %3 支持 Gen%4（受插槽或转接卡限制）。</translation>
    </message>
    <message>
        <source>%1 has MIG enabled: you rented a slice, not the whole GPU. If the whole GPU was advertised, ask the provider (or run `sudo nvidia-smi -mig 0` and reset the GPU).</source>
        <translation>%1 已启用 MIG：你租到的是 GPU 的一个切片，而不是整张卡。如果宣传的是整卡，请联系云服务商（或运行 `sudo nvidia-smi -mig 0` 并重置 GPU）。</translation>
    </message>
    <message>
        <source>%1 %2: %3 %4 is %5% of the spec sheet&apos;s %6; rerun, and if it repeats ask the provider.</source>
        <translation>%1 %2：%3 %4 仅为规格表中 %6 的 %5%；请重新运行，若仍如此，请联系云服务商。</translation>
    </message>
    <message numerus="yes">
        <source>The instance type advertises %n GPU(s) but only %1 answered. Ask the provider for a refund or relaunch.</source>
        <translation>
            <numerusform>该实例类型标称 %n 块 GPU，但只有 %1 块有响应。请向云服务商申请退款，或重新创建实例。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is a %2, but the instance type advertises %3. Stop the instance and report it to the provider.</source>
        <translation>%1 实际是 %2，但该实例类型标称为 %3。请将实例关机，并向云服务商反馈。</translation>
    </message>
    <message>
        <source>%1 is a %2, but the instance type advertises %3 (%4 GB/s vs %5 GB/s memory bandwidth). Check you were billed for the right variant.</source>
        <translation>%1 实际是 %2，但该实例类型标称为 %3（显存带宽 %4 GB/s 对比 %5 GB/s）。请确认计费的型号是否正确。</translation>
    </message>
    <message>
        <source>%1 has %2 GiB of memory; the instance type advertises %3 GB per GPU. Ask the provider, or relaunch.</source>
        <translation>%1 的显存为 %2 GiB，而该实例类型标称每块 GPU %3 GB。请联系云服务商，或重新创建实例。</translation>
    </message>
    <message>
        <source>%1 %2: ratio %3 is below Gantry&apos;s threshold, so it counts as %4.</source>
        <translation>%1 %2：比值 %3 低于 Gantry 的阈值，因此判定为 %4。</translation>
    </message>
    <message>
        <source>%1 is not in Gantry&apos;s spec table; it is judged by its own clocks only.</source>
        <translation>%1 不在 Gantry 的规格表中，仅根据其自身频率进行评估。</translation>
    </message>
    <message>
        <source>ERROR: no GPU was tested</source>
        <translation>错误：没有测试任何 GPU</translation>
    </message>
    <message>
        <source>ERROR: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>PASS: %1 healthy and at spec</source>
        <translation>通过：%1 状态正常，性能达标</translation>
    </message>
    <message>
        <source>WARN: %1 works but underdelivers; see the warnings</source>
        <translation>警告：%1 可以工作但性能不达标；请查看警告</translation>
    </message>
    <message>
        <source>FAIL: %1 is faulty or not as advertised</source>
        <translation>失败：%1 有故障或与宣传不符</translation>
    </message>
    <message>
        <source>%1: %2 could not be fully tested</source>
        <translation>%1：%2 未能完整测试</translation>
    </message>
    <message>
        <source>No NVIDIA GPU/driver found: nvidia-smi is not installed, so the NVIDIA driver is missing or this is not a GPU image.</source>
        <translation>未找到 NVIDIA GPU/驱动：未安装 nvidia-smi，说明缺少 NVIDIA 驱动，或这不是 GPU 镜像。</translation>
    </message>
    <message>
        <source>Relaunch with the provider&apos;s GPU/CUDA image, or install the driver (`sudo apt install nvidia-driver-%1` or `sudo ubuntu-drivers install`), then reboot.</source>
        <translation>请使用云服务商提供的 GPU/CUDA 镜像重新创建实例，或安装驱动（`sudo apt install nvidia-driver-%1` 或 `sudo ubuntu-drivers install`），然后重启。</translation>
    </message>
    <message>
        <source>nvidia-smi fails: %1</source>
        <translation>nvidia-smi 运行失败：%1</translation>
    </message>
    <message>
        <source>Reboot the instance; if it persists, ask the provider for another machine.</source>
        <translation>请重启实例；如果问题仍然存在，请向云服务商申请更换机器。</translation>
    </message>
    <message numerus="yes">
        <source>nvidia-smi works: %n GPU(s), driver %1, CUDA %2</source>
        <translation>
            <numerusform>nvidia-smi 正常：%n 块 GPU，驱动 %1，CUDA %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Driver %1 (CUDA %2) is too old for Gantry&apos;s verification program (needs %3 or newer); Verify will build it on the instance or fall back to PyTorch.</source>
        <translation>驱动 %1（CUDA %2）版本过旧，无法运行 Gantry 的验证程序（需要 %3 或更高版本）；验证时将在实例上编译该程序，或回退到 PyTorch。</translation>
    </message>
    <message>
        <source>Pick an image with driver %1 or newer, or upgrade: `sudo apt install nvidia-driver-%1` and reboot.</source>
        <translation>请选择驱动为 %1 或更高版本的镜像，或升级驱动：`sudo apt install nvidia-driver-%1`，然后重启。</translation>
    </message>
    <message>
        <source>Driver %1 (CUDA %2) is older than CUDA 13 (driver %3): the verification program falls back to JIT-compiled PTX, and CUDA 13 software (e.g. PyTorch cu130 wheels) will not run.</source>
        <translation>驱动 %1（CUDA %2）低于 CUDA 13 所需版本（驱动 %3）：验证程序将回退到 JIT 编译的 PTX，且 CUDA 13 软件（如 PyTorch cu130 wheel 包）无法运行。</translation>
    </message>
    <message>
        <source>Driver %1 is new enough for the verification program.</source>
        <translation>驱动 %1 版本满足验证程序的要求。</translation>
    </message>
    <message>
        <source>%1 runs %2</source>
        <translation>%1 正在运行 %2</translation>
    </message>
    <message>
        <source>%1 has %2 MiB in use by a process this user cannot see (another container?)</source>
        <translation>%1 有 %2 MiB 显存被当前用户看不到的进程占用（可能是其他容器？）</translation>
    </message>
    <message>
        <source>pid %1 (%2) uses %3</source>
        <translation>pid %1（%2）占用 %3</translation>
    </message>
    <message>
        <source>No other process is using the GPUs.</source>
        <translation>没有其他进程在使用 GPU。</translation>
    </message>
    <message>
        <source>The GPU is already in use: %1.</source>
        <translation>GPU 已被占用：%1。</translation>
    </message>
    <message>
        <source>Stop those processes (`nvidia-smi` lists them; `kill PID`) before measuring, or ask the provider why a fresh instance is busy.</source>
        <translation>测量前请结束这些进程（用 `nvidia-smi` 查看，用 `kill PID` 结束），或询问云服务商为何新实例的 GPU 已被占用。</translation>
    </message>
    <message>
        <source>MIG is off: each GPU is whole.</source>
        <translation>MIG 已关闭：每块 GPU 都是整卡。</translation>
    </message>
    <message>
        <source>MIG is enabled on %1: processes see GPU slices, not whole GPUs.</source>
        <translation>%1 已启用 MIG：进程看到的是 GPU 切片，而不是整卡。</translation>
    </message>
    <message>
        <source>If you rented whole GPUs, run `sudo nvidia-smi -i N -mig 0` and reset the GPU (`sudo nvidia-smi -i N -r`), or ask the provider.</source>
        <translation>如果你租的是整卡，请运行 `sudo nvidia-smi -i N -mig 0` 并重置 GPU（`sudo nvidia-smi -i N -r`），或联系云服务商。</translation>
    </message>
    <message numerus="yes">
        <source>NVSwitch system: nvidia-smi reports the NVLink fabric initialised on all %n GPUs (Fabric Manager runs outside this container).</source>
        <translation>
            <numerusform>NVSwitch 系统：nvidia-smi 报告全部 %n 块 GPU 的 NVLink fabric 已初始化（Fabric Manager 在此容器之外运行）。</numerusform>
        </translation>
    </message>
    <message>
        <source>NVSwitch system, but whether Fabric Manager runs cannot be told from here: systemd is not PID 1 (a container), so systemctl cannot see it.</source>
        <translation>NVSwitch 系统，但无法从这里判断 Fabric Manager 是否在运行：systemd 不是 PID 1（这是一个容器），systemctl 看不到它。</translation>
    </message>
    <message>
        <source>Check it: `nvidia-smi -q | grep -A2 Fabric` should show State &quot;Completed&quot; on every GPU, or run a tiny CUDA init (`python3 -c &quot;import torch; torch.zeros(1).cuda()&quot;`); error 802 there means Fabric Manager is not running — ask the provider.</source>
        <translation>检查方法：`nvidia-smi -q | grep -A2 Fabric` 应在每块 GPU 上显示 State &quot;Completed&quot;；或运行一次最小的 CUDA 初始化（`python3 -c &quot;import torch; torch.zeros(1).cuda()&quot;`）；若报错 802，说明 Fabric Manager 未运行——请联系云服务商。</translation>
    </message>
    <message>
        <source>Start it: `sudo systemctl enable --now nvidia-fabricmanager` (install the nvidia-fabricmanager package matching driver %1 if missing), or ask the provider.</source>
        <translation>请启动它：`sudo systemctl enable --now nvidia-fabricmanager`（如未安装，请安装与驱动 %1 匹配的 nvidia-fabricmanager 软件包），或联系云服务商。</translation>
    </message>
    <message>
        <source>%1 fabric state &quot;%2&quot;</source>
        <translation>%1 fabric 状态为“%2”</translation>
    </message>
    <message>
        <source>CUDA fails with error 802 (system not yet initialized): on NVSwitch systems this means the NVIDIA Fabric Manager is not running (Fabric Manager: %1).</source>
        <translation>CUDA 报错 802（system not yet initialized）：在 NVSwitch 系统上，这表示 NVIDIA Fabric Manager 未运行（Fabric Manager：%1）。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The NVLink fabric is not initialised: %1; CUDA will fail with error 802.</source>
        <translation>NVLink fabric 未初始化：%1；CUDA 将报错 802。</translation>
    </message>
    <message>
        <source>Not an NVSwitch system: Fabric Manager is not needed.</source>
        <translation>不是 NVSwitch 系统：无需 Fabric Manager。</translation>
    </message>
    <message>
        <source>NVSwitch system and Fabric Manager is running.</source>
        <translation>NVSwitch 系统，Fabric Manager 正在运行。</translation>
    </message>
    <message numerus="yes">
        <source>This is an NVSwitch system (%n GPUs) but Fabric Manager is not running (%1); CUDA will fail with error 802.</source>
        <translation>
            <numerusform>这是 NVSwitch 系统（%n 块 GPU），但 Fabric Manager 未运行（%1）；CUDA 将报错 802。</numerusform>
        </translation>
    </message>
    <message>
        <source>state unknown</source>
        <translation>状态未知</translation>
    </message>
    <message>
        <source>Clocks are throttled by hardware (cut to half or less): %1.</source>
        <translation>频率被硬件降频（降至一半或更低）：%1。</translation>
    </message>
    <message>
        <source>This is a cooling or power-delivery fault of the machine: stop the instance and ask the provider for another one.</source>
        <translation>这是机器的散热或供电故障：请将实例关机，并向云服务商申请更换一台。</translation>
    </message>
    <message>
        <source>Clocks are reduced because the GPU runs hot: %1.</source>
        <translation>GPU 温度过高导致降频：%1。</translation>
    </message>
    <message>
        <source>Watch temperatures in the Monitor tab; if it persists at low load, ask the provider.</source>
        <translation>请在“监控”标签页中观察温度；如果低负载时仍然如此，请联系云服务商。</translation>
    </message>
    <message>
        <source>No thermal or power-brake throttling.</source>
        <translation>没有因温度或功耗制动导致的降频。</translation>
    </message>
    <message>
        <source>%1 has %2 uncorrected ECC errors since boot</source>
        <translation>%1 自开机以来有 %2 个不可纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>%1 has a row remap pending (needs a GPU reset)</source>
        <translation>%1 有待处理的行重映射（需要重置 GPU）</translation>
    </message>
    <message>
        <source>%1 ran out of spare memory rows (remapping failure)</source>
        <translation>%1 的备用显存行已用尽（重映射失败）</translation>
    </message>
    <message>
        <source>%1 has a page retirement pending (needs a GPU reset)</source>
        <translation>%1 有待处理的页面退役（需要重置 GPU）</translation>
    </message>
    <message>
        <source>%1 has %2 rows remapped after uncorrectable errors</source>
        <translation>%1 因不可纠正错误已重映射 %2 行</translation>
    </message>
    <message>
        <source>%1 memory pages have been retired after ECC errors</source>
        <translation>因 ECC 错误已退役 %1 个显存页面</translation>
    </message>
    <message>
        <source>Reset the GPU (`sudo nvidia-smi -r -i N` with no processes on it) or reboot; if errors return, stop the instance and ask the provider for another machine.</source>
        <translation>请重置 GPU（在没有进程占用时运行 `sudo nvidia-smi -r -i N`）或重启；如果错误再次出现，请将实例关机，并向云服务商申请更换机器。</translation>
    </message>
    <message>
        <source>The memory was repaired, but this GPU has had faults: keep an eye on it (Verify&apos;s memory test checks it now).</source>
        <translation>显存已修复，但这块 GPU 曾出现故障：请留意它的状态（验证中的显存测试会对其进行检查）。</translation>
    </message>
    <message>
        <source>No uncorrected ECC errors and no pending row remaps.</source>
        <translation>没有不可纠正的 ECC 错误，也没有待处理的行重映射。</translation>
    </message>
    <message>
        <source>%1 runs x%2 of x%3</source>
        <translation>%1 运行在 x%2（最高 x%3）</translation>
    </message>
    <message>
        <source>%1 runs Gen%2 of Gen%3 under load</source>
        <translation>%1 负载下运行在 Gen%2（最高 Gen%3）</translation>
    </message>
    <message>
        <source>PCIe link below its maximum: %1.</source>
        <translation>PCIe 链路未达到最高规格：%1。</translation>
    </message>
    <message>
        <source>Run Verify: it measures host↔device bandwidth under load. If the link stays low, the GPU sits in a slow slot or riser: ask the provider.</source>
        <translation>请运行验证：它会在负载下测量主机↔设备带宽。如果链路一直偏低，说明 GPU 插在低速插槽或转接卡上：请联系云服务商。</translation>
    </message>
    <message>
        <source>PCIe links at full width; %1 idle at a lower generation (normal power saving).</source>
        <translation>PCIe 链路宽度已满；%1 空闲时运行在较低代数（正常节能行为）。</translation>
    </message>
    <message>
        <source>PCIe links at their maximum generation and width.</source>
        <translation>PCIe 链路已达到最高代数和宽度。</translation>
    </message>
    <message>
        <source>%1 at %2 W of %3 W</source>
        <translation>%1 功耗上限 %2 W（默认 %3 W）</translation>
    </message>
    <message>
        <source>Power limits at their defaults.</source>
        <translation>功耗上限均为默认值。</translation>
    </message>
    <message>
        <source>Power-capped below the default: %1.</source>
        <translation>功耗上限低于默认值：%1。</translation>
    </message>
    <message>
        <source>With root: `sudo nvidia-smi -i N -pl DEFAULT_WATTS`; otherwise ask the provider (it cuts throughput).</source>
        <translation>如有 root 权限：`sudo nvidia-smi -i N -pl DEFAULT_WATTS`；否则请联系云服务商（它会降低吞吐量）。</translation>
    </message>
    <message>
        <source>No Python on the instance (PyTorch not checked).</source>
        <translation>实例上没有 Python（未检查 PyTorch）。</translation>
    </message>
    <message>
        <source>PyTorch is not installed (nothing to check).</source>
        <translation>未安装 PyTorch（无需检查）。</translation>
    </message>
    <message>
        <source>PyTorch %1 (CUDA %2) sees the GPU.</source>
        <translation>PyTorch %1（CUDA %2）可以识别 GPU。</translation>
    </message>
    <message>
        <source>PyTorch %1 is a CPU-only build: it cannot use the GPU.</source>
        <translation>PyTorch %1 是仅 CPU 版本：无法使用 GPU。</translation>
    </message>
    <message>
        <source>Fix the driver first (see nvidia-smi).</source>
        <translation>请先修复驱动（参见 nvidia-smi 检查项）。</translation>
    </message>
    <message>
        <source>PyTorch %1 is built for CUDA %2 but driver %3 supports only CUDA %4, so torch.cuda.is_available() is False.</source>
        <translation>PyTorch %1 基于 CUDA %2 构建，但驱动 %3 最高只支持 CUDA %4，因此 torch.cuda.is_available() 为 False。</translation>
    </message>
    <message>
        <source>Install a matching build: `%1`, or upgrade the driver.</source>
        <translation>请安装匹配的版本：`%1`，或升级驱动。</translation>
    </message>
    <message>
        <source>PyTorch %1 (CUDA %2) cannot use the GPU%3.</source>
        <translation>PyTorch %1（CUDA %2）无法使用 GPU%3。</translation>
    </message>
    <message>
        <source>Check CUDA_VISIBLE_DEVICES and that the container has the GPU (`--gpus all`); see the other checks for driver problems.</source>
        <translation>请检查 CUDA_VISIBLE_DEVICES，并确认容器已挂载 GPU（`--gpus all`）；驱动问题请参见其他检查项。</translation>
    </message>
    <message>
        <source>%1 %2% full (%3 GiB free)</source>
        <translation>%1 已用 %2%（剩余 %3 GiB）</translation>
    </message>
    <message>
        <source>/dev/shm is only %1 MiB (PyTorch DataLoader workers crash)</source>
        <translation>/dev/shm 只有 %1 MiB（PyTorch DataLoader 的 worker 会崩溃）</translation>
    </message>
    <message>
        <source>Free space (`du -xh / | sort -h | tail`, `pip cache purge`, `conda clean -a`) or attach a larger volume; for /dev/shm start the container with `--shm-size=16g`.</source>
        <translation>请清理空间（`du -xh / | sort -h | tail`、`pip cache purge`、`conda clean -a`）或挂载更大的数据盘；对于 /dev/shm，请使用 `--shm-size=16g` 启动容器。</translation>
    </message>
    <message>
        <source>Disk nearly full: %1.</source>
        <translation>磁盘即将写满：%1。</translation>
    </message>
    <message>
        <source>Low disk space: %1.</source>
        <translation>磁盘空间不足：%1。</translation>
    </message>
    <message>
        <source>Disk usage unknown (df printed nothing).</source>
        <translation>磁盘用量未知（df 没有输出）。</translation>
    </message>
    <message>
        <source>Enough free disk space.</source>
        <translation>磁盘剩余空间充足。</translation>
    </message>
    <message>
        <source>Simulated GPU: this nvidia-smi is the Gantry sandbox&apos;s stand-in, so there is no real GPU to check.</source>
        <translation>模拟 GPU：此 nvidia-smi 是 Gantry 沙盒的替身，因此没有真实的 GPU 可供检查。</translation>
    </message>
    <message>
        <source>Use it to try Monitor, alerts and the idle policy; rent a GPU instance to check real hardware.</source>
        <translation>可用它试用监控、告警和空闲策略；要检查真实硬件，请租用 GPU 实例。</translation>
    </message>
    <message>
        <source>The doctor script did not finish, so some checks are missing.</source>
        <translation>诊断脚本未运行完毕，部分检查结果缺失。</translation>
    </message>
    <message>
        <source>Run it again; if it keeps stopping, a command on the instance hangs (often nvidia-smi on a broken driver).</source>
        <translation>请重新运行；如果一直中断，说明实例上有命令卡住了（通常是驱动损坏时的 nvidia-smi）。</translation>
    </message>
    <message>
        <source>nvidia-smi cannot talk to the NVIDIA driver: the kernel module is not loaded (driver not installed for this kernel, or the module failed to load).</source>
        <translation>nvidia-smi 无法与 NVIDIA 驱动通信：内核模块未加载（未为当前内核安装驱动，或模块加载失败）。</translation>
    </message>
    <message>
        <source>Reboot; if it persists reinstall the driver for the running kernel (`sudo apt install --reinstall nvidia-driver-XXX` / DKMS) or relaunch with the provider&apos;s GPU image.</source>
        <translation>请重启；如果问题仍然存在，请为当前运行的内核重新安装驱动（`sudo apt install --reinstall nvidia-driver-XXX` / DKMS），或使用云服务商的 GPU 镜像重新创建实例。</translation>
    </message>
    <message>
        <source>NVML/driver version mismatch: the driver was upgraded but the old kernel module is still loaded.</source>
        <translation>NVML/驱动版本不匹配：驱动已升级，但仍加载着旧的内核模块。</translation>
    </message>
    <message>
        <source>NVML/driver version mismatch: the user-space driver is %1 but the loaded kernel module is older (the driver was upgraded without a reboot).</source>
        <translation>NVML/驱动版本不匹配：用户态驱动为 %1，但已加载的内核模块版本更旧（升级驱动后未重启）。</translation>
    </message>
    <message>
        <source>Reboot the instance (or stop GPU processes and reload the nvidia kernel modules).</source>
        <translation>请重启实例（或结束 GPU 进程并重新加载 nvidia 内核模块）。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is loaded but sees no GPU: the GPU is not attached to this VM/container.</source>
        <translation>NVIDIA 驱动已加载，但检测不到 GPU：GPU 未挂载到此虚拟机/容器。</translation>
    </message>
    <message>
        <source>Start the container with the GPU (`docker run --gpus all`), check CUDA/NVIDIA_VISIBLE_DEVICES, or relaunch the instance.</source>
        <translation>请挂载 GPU 启动容器（`docker run --gpus all`），检查 CUDA/NVIDIA_VISIBLE_DEVICES，或重新创建实例。</translation>
    </message>
    <message>
        <source>A GPU has fallen off the bus (&quot;GPU is lost&quot;): hardware or power fault.</source>
        <translation>有 GPU 从总线上掉卡（“GPU is lost”）：硬件或供电故障。</translation>
    </message>
    <message>
        <source>Reboot to recover; if it happens again, stop the instance and ask the provider for another machine.</source>
        <translation>请重启以恢复；如果再次发生，请将实例关机，并向云服务商申请更换机器。</translation>
    </message>
    <message>
        <source>nvidia-smi cannot open a GPU (%1).</source>
        <translation>nvidia-smi 无法打开 GPU（%1）。</translation>
    </message>
    <message>
        <source>Reboot; if it persists, the GPU is faulty: ask the provider for another machine.</source>
        <translation>请重启；如果问题仍然存在，说明 GPU 有故障：请向云服务商申请更换机器。</translation>
    </message>
    <message>
        <source>NVML fails to start: %1.</source>
        <translation>NVML 启动失败：%1。</translation>
    </message>
    <message>
        <source>Reboot; if it persists reinstall the driver or relaunch with the provider&apos;s GPU image.</source>
        <translation>请重启；如果问题仍然存在，请重新安装驱动，或使用云服务商的 GPU 镜像重新创建实例。</translation>
    </message>
    <message>
        <source>Cannot create the config directory %1; check its permissions.</source>
        <translation>无法创建配置目录 %1；请检查其权限。</translation>
    </message>
    <message>
        <source>Cannot open the verification history %1: %2</source>
        <translation>无法打开验证历史 %1：%2</translation>
    </message>
    <message>
        <source>Cannot prepare the verification history %1: %2</source>
        <translation>无法初始化验证历史 %1：%2</translation>
    </message>
    <message>
        <source>Cannot save the run in %1: %2</source>
        <translation>无法将本次运行结果保存到 %1：%2</translation>
    </message>
    <message>
        <source>The verification history is not open.</source>
        <translation>验证历史未打开。</translation>
    </message>
    <message>
        <source>Cannot read the verification history: %1</source>
        <translation>无法读取验证历史：%1</translation>
    </message>
    <message>
        <source>the instance has no nvcc to build it</source>
        <translation>实例上没有可用于编译的 nvcc</translation>
    </message>
    <message>
        <source>the instance&apos;s nvcc %1 is too old to build it (12.0 or newer needed)</source>
        <translation>实例上的 nvcc %1 版本过旧，无法编译（需要 12.0 或更高版本）</translation>
    </message>
    <message>
        <source>the instance&apos;s nvcc %1 is newer than its driver supports (CUDA %2)</source>
        <translation>实例上的 nvcc %1 高于其驱动支持的版本（CUDA %2）</translation>
    </message>
    <message>
        <source>%1, so Gantry builds the verification program on the instance with its nvcc %2.</source>
        <translation>%1，因此 Gantry 将使用实例上的 nvcc %2 在实例上编译验证程序。</translation>
    </message>
    <message>
        <source>this Gantry has no kernel sources to build on the instance</source>
        <translation>此 Gantry 未附带可在实例上编译的内核源码</translation>
    </message>
    <message>
        <source>%1 and %2, so Gantry measures with PyTorch %3 instead (CUDA, a BF16 matmul rate, a copy rate).</source>
        <translation>%1，且%2，因此 Gantry 改用 PyTorch %3 测量（CUDA、BF16 矩阵乘法速率、拷贝速率）。</translation>
    </message>
    <message>
        <source>%1, %2, and PyTorch with CUDA is not available: only a diagnosis is possible.</source>
        <translation>%1，%2，且没有可用的 CUDA 版 PyTorch：只能进行诊断。</translation>
    </message>
    <message>
        <source>The GPU is simulated by the Gantry sandbox: there is nothing real to measure.</source>
        <translation>该 GPU 由 Gantry 沙盒模拟：没有真实的东西可测量。</translation>
    </message>
    <message>
        <source>nvidia-smi is %1 but PyTorch %2 sees the GPU, so Gantry measures with PyTorch.</source>
        <translation>nvidia-smi %1，但 PyTorch %2 可以识别 GPU，因此 Gantry 使用 PyTorch 测量。</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>No NVIDIA GPU/driver found (nvidia-smi is not installed): only a diagnosis is possible.</source>
        <translation>未找到 NVIDIA GPU/驱动（未安装 nvidia-smi）：只能进行诊断。</translation>
    </message>
    <message>
        <source>The NVIDIA driver does not work (%1): only a diagnosis is possible.</source>
        <translation>NVIDIA 驱动无法工作（%1）：只能进行诊断。</translation>
    </message>
    <message>
        <source>This Gantry has no built gantry-verify (built without nvcc)</source>
        <translation>此 Gantry 未附带已编译的 gantry-verify（构建时没有 nvcc）</translation>
    </message>
    <message>
        <source>The bundled gantry-verify is for %1 but the instance is %2</source>
        <translation>内置的 gantry-verify 适用于 %1，但实例是 %2</translation>
    </message>
    <message>
        <source>Driver %1 is older than the bundled gantry-verify needs (%2, CUDA 13)</source>
        <translation>驱动 %1 低于内置 gantry-verify 的要求（%2，CUDA 13）</translation>
    </message>
    <message>
        <source>Driver %1 runs the bundled gantry-verify.</source>
        <translation>驱动 %1 可以运行内置的 gantry-verify。</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <source>Verification cancelled.</source>
        <translation>验证已取消。</translation>
    </message>
    <message>
        <source>The instance did not run Gantry&apos;s check script (exit %1); make sure the login shell can run `sh`.</source>
        <translation>实例未能运行 Gantry 的检查脚本（退出码 %1）；请确认登录 shell 可以运行 `sh`。</translation>
    </message>
    <message>
        <source>Cannot read %1 (%2); rebuild Gantry or pass --binary PATH.</source>
        <translation>无法读取 %1（%2）；请重新构建 Gantry，或传入 --binary PATH。</translation>
    </message>
    <message>
        <source>Cannot upload %1: the instance&apos;s home disk is full; free space and retry.</source>
        <translation>无法上传 %1：实例的主目录所在磁盘已满；请清理空间后重试。</translation>
    </message>
    <message>
        <source>Cannot upload %1 to ~/.cache/gantry (%2); check the home directory is writable.</source>
        <translation>无法将 %1 上传到 ~/.cache/gantry（%2）；请检查主目录是否可写。</translation>
    </message>
    <message>
        <source>The uploaded %1 arrived damaged (checksum differs); retry the upload.</source>
        <translation>上传的 %1 已损坏（校验和不一致）；请重新上传。</translation>
    </message>
    <message>
        <source>gantry-verify rejected its arguments (%1); this Gantry and its verification program do not match, rebuild both.</source>
        <translation>gantry-verify 拒绝了传入的参数（%1）；此 Gantry 与其验证程序版本不匹配，请同时重新构建两者。</translation>
    </message>
    <message>
        <source>The instance cannot execute the verification program (exit %1: %2); it may be mounted noexec or need another architecture.</source>
        <translation>实例无法执行验证程序（退出码 %1：%2）；可能其所在目录以 noexec 挂载，或需要其他架构的版本。</translation>
    </message>
    <message>
        <source>The verification program failed (exit %1)%2; rerun Verify, and if it repeats, run Doctor.</source>
        <translation>验证程序运行失败（退出码 %1）%2；请重新运行验证，若仍失败，请运行诊断。</translation>
    </message>
    <message>
        <source>This Gantry has no kernels/ sources to build on the instance.</source>
        <translation>此 Gantry 未附带可在实例上编译的 kernels/ 源码。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Building the verification program on the instance with its nvcc…</source>
        <translation>正在使用实例上的 nvcc 编译验证程序…</translation>
    </message>
    <message>
        <source>Building the verification program on the instance failed: %1</source>
        <translation>在实例上编译验证程序失败：%1</translation>
    </message>
    <message>
        <source>no output</source>
        <translation>无输出</translation>
    </message>
    <message>
        <source>Uploading the verification program…</source>
        <translation>正在上传验证程序…</translation>
    </message>
    <message>
        <source>Running the verification program…</source>
        <translation>正在运行验证程序…</translation>
    </message>
    <message>
        <source>The bundled gantry-verify says the driver is too old</source>
        <translation>内置的 gantry-verify 提示驱动版本过旧</translation>
    </message>
    <message>
        <source>%1; Gantry measures with PyTorch instead.</source>
        <translation>%1；Gantry 改用 PyTorch 测量。</translation>
    </message>
    <message>
        <source>Running the verification program built on the instance…</source>
        <translation>正在运行在实例上编译的验证程序…</translation>
    </message>
    <message>
        <source>Measuring with PyTorch…</source>
        <translation>正在使用 PyTorch 测量…</translation>
    </message>
    <message>
        <source>Checking the instance (driver, GPUs, tools)…</source>
        <translation>正在检查实例（驱动、GPU、工具）…</translation>
    </message>
    <message>
        <source>Cannot read %1: %2; check its permissions.</source>
        <translation>无法读取 %1：%2；请检查其权限。</translation>
    </message>
    <message>
        <source>%1 is not valid JSON (%2); move it away and Gantry starts a new record of machines.</source>
        <translation>%1 不是有效的 JSON（%2）；将其移走后，Gantry 会重新开始记录机器。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot save %1: %2; check the free disk space.</source>
        <translation>无法保存 %1：%2；请检查剩余磁盘空间。</translation>
    </message>
    <message>
        <source>This run was not saved to the history: %1</source>
        <translation>本次运行未保存到历史记录：%1</translation>
    </message>
    <message>
        <source>This machine&apos;s record was not updated: %1</source>
        <translation>这台机器的记录未更新：%1</translation>
    </message>
    <message>
        <source>The history cannot be read: %1</source>
        <translation>无法读取历史记录：%1</translation>
    </message>
    <message>
        <source>Not connected: connect to the machine first.</source>
        <translation>未连接：请先连接到该机器。</translation>
    </message>
    <message>
        <source>SIMULATED GPU: nothing was measured. This machine&apos;s nvidia-smi is the Gantry sandbox&apos;s stand-in, not a real GPU.</source>
        <translation>模拟 GPU：未进行任何测量。这台机器的 nvidia-smi 是 Gantry 沙盒的替身，不是真实的 GPU。</translation>
    </message>
    <message>
        <source>doctor: %1</source>
        <translation>诊断：%1</translation>
    </message>
    <message>
        <source>%1, %2% of the %3 %4 good machines achieve (%5).</source>
        <translation>%1，为正常机器可达到的 %3 %4 的 %2%（%5）。</translation>
    </message>
    <message>
        <source>Below 90 %: ask for a refund with this report if it stays low.</source>
        <translation>低于 90%：如果持续偏低，请凭此报告申请退款。</translation>
    </message>
    <message>
        <source>Below 75 %: return it.</source>
        <translation>低于 75%：请退还。</translation>
    </message>
    <message>
        <source> (%1% of the datasheet)</source>
        <translation>（规格表的 %1%）</translation>
    </message>
    <message>
        <source>%1%2. The %3 %4 reference is cuBLAS&apos;s; gantry-verify&apos;s portable kernel does not reach it, so its own thresholds judge this figure.</source>
        <translation>%1%2。%3 %4 的参考值来自 cuBLAS；gantry-verify 的通用内核达不到它，因此按其自身阈值判定此数值。</translation>
    </message>
    <message>
        <source>%1%2. No achieved figure on record for %3, so gantry-verify&apos;s own thresholds judge it.</source>
        <translation>%1%2。没有 %3 的实测参考值，因此按 gantry-verify 自身阈值判定。</translation>
    </message>
    <message>
        <source>Gen%1 x%2 under load, its maximum.</source>
        <translation>负载下 Gen%1 x%2，已达最高。</translation>
    </message>
    <message>
        <source>Gen%1 x%2 under load, of Gen%3 x%4: a degraded link slows every transfer. Return the machine.</source>
        <translation>负载下 Gen%1 x%2（最高 Gen%3 x%4）：链路降级会拖慢每次传输。请退还这台机器。</translation>
    </message>
    <message>
        <source>Reference: %1 %2 (%3).</source>
        <translation>参考值：%1 %2（%3）。</translation>
    </message>
    <message>
        <source>GPU↔GPU (NVLink/PCIe peer) bandwidth is not measured by this gantry-verify.</source>
        <translation>此版本 gantry-verify 不测量 GPU↔GPU（NVLink/PCIe 对等）带宽。</translation>
    </message>
    <message>
        <source>NCCL all-reduce bus bandwidth is not measured by this gantry-verify.</source>
        <translation>此版本 gantry-verify 不测量 NCCL all-reduce 总线带宽。</translation>
    </message>
    <message>
        <source>The data disk&apos;s read and write speed is not measured by this gantry-verify.</source>
        <translation>此版本 gantry-verify 不测量数据盘的读写速度。</translation>
    </message>
    <message>
        <source>GPU %1 %2</source>
        <translation>GPU %1 %2</translation>
    </message>
    <message>
        <source>Return it, and ask for a refund with this report.</source>
        <translation>请退还，并凭此报告申请退款。</translation>
    </message>
    <message>
        <source>Nothing is decided: fix what could not run, then test again.</source>
        <translation>无法判定：请修复未能运行的部分后重新测试。</translation>
    </message>
    <message>
        <source>Keep it if the warnings do not matter for your work; otherwise ask for a refund with this report.</source>
        <translation>如果这些警告不影响您的工作就保留；否则请凭此报告申请退款。</translation>
    </message>
    <message>
        <source>Keep it: it performs like a good machine of its kind.</source>
        <translation>保留：它的表现与同类正常机器一致。</translation>
    </message>
    <message>
        <source>Simulated GPU: this nvidia-smi is the Gantry sandbox&apos;s stand-in, so nothing real was measured (a simulated GPU never passes).</source>
        <translation>模拟 GPU：此 nvidia-smi 是 Gantry 沙盒的替身，没有测量任何真实硬件（模拟 GPU 永远不会通过）。</translation>
    </message>
    <message>
        <source>No CUDA device: without a working NVIDIA driver nothing could be measured.</source>
        <translation>没有 CUDA 设备：没有可用的 NVIDIA 驱动，无法测量。</translation>
    </message>
    <message>
        <source>gantry-verify did not run.</source>
        <translation>gantry-verify 未运行。</translation>
    </message>
    <message>
        <source>The active figures could not be measured: %1</source>
        <translation>无法测量主动性能数据：%1</translation>
    </message>
    <message>
        <source>acceptance test: %1</source>
        <translation>验收测试：%1</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>none (a host added by hand)</source>
        <translation>无（手动添加的主机）</translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation>实例类型</translation>
    </message>
    <message>
        <source>Machine id</source>
        <translation>机器 ID</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Driver / CUDA</source>
        <translation>驱动 / CUDA</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Started (UTC)</source>
        <translation>开始（UTC）</translation>
    </message>
    <message>
        <source>Finished (UTC)</source>
        <translation>结束（UTC）</translation>
    </message>
    <message>
        <source>Figures (the slowest GPU is the machine&apos;s)</source>
        <translation>性能数据（以最慢的 GPU 作为整机数值）</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考值</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Acceptance test: %1</source>
        <translation>验收测试：%1</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>machine</source>
        <translation>整机</translation>
    </message>
    <message>
        <source>References are what healthy machines achieve, not datasheet peaks; each names its source. Made by Gantry&apos;s acceptance test.</source>
        <translation>参考值是正常机器的实测表现，而非规格表峰值；每项都注明来源。由 Gantry 验收测试生成。</translation>
    </message>
    <message>
        <source>nvidia-smi counts %1 GPUs attached but only %2 answer: a GPU has fallen off the bus. Return the machine.</source>
        <translation>nvidia-smi 显示连接了 %1 块 GPU，但只有 %2 块有响应：有一块 GPU 已从总线掉线。请退还这台机器。</translation>
    </message>
    <message>
        <source>%1 of the %2 GPUs expected are there: a GPU is missing. Return the machine, or ask for a refund with this report.</source>
        <translation>预期 %2 块 GPU，只有 %1 块：缺少 GPU。请退还这台机器，或凭此报告申请退款。</translation>
    </message>
    <message>
        <source>%1 GPUs, more than the %2 expected: check that you are billed for what you asked for.</source>
        <translation>%1 块 GPU，多于预期的 %2 块：请核对计费是否与所租一致。</translation>
    </message>
    <message>
        <source>%1 GPUs, as expected.</source>
        <translation>%1 块 GPU，符合预期。</translation>
    </message>
    <message>
        <source>%1 GPUs (no count was expected: give one to compare).</source>
        <translation>%1 块 GPU（未给出预期数量：提供数量即可比对）。</translation>
    </message>
    <message>
        <source>Driver %1, CUDA %2</source>
        <translation>驱动 %1，CUDA %2</translation>
    </message>
    <message>
        <source>%1: older than %2, which CUDA 11 needs. Pick a newer image or return the machine.</source>
        <translation>%1：低于 CUDA 11 所需的 %2。请换用更新的镜像，或退还这台机器。</translation>
    </message>
    <message>
        <source>%1: older than %2, so CUDA 13 software (PyTorch cu130 wheels) will not run. Pick a newer image if you need it.</source>
        <translation>%1：低于 %2，CUDA 13 软件（PyTorch cu130 包）无法运行。如有需要请换用更新的镜像。</translation>
    </message>
    <message>
        <source>nvidia-smi shows no driver version.</source>
        <translation>nvidia-smi 未显示驱动版本。</translation>
    </message>
    <message>
        <source>%1, as expected (%2).</source>
        <translation>%1，符合预期（%2）。</translation>
    </message>
    <message>
        <source>%1, not the %2 expected. Return the machine, or ask for a refund with this report.</source>
        <translation>%1，不是预期的 %2。请退还这台机器，或凭此报告申请退款。</translation>
    </message>
    <message>
        <source>%1 (no model was expected).</source>
        <translation>%1（未给出预期型号）。</translation>
    </message>
    <message>
        <source>%1 MiB; no spec to compare with.</source>
        <translation>%1 MiB；没有可比对的规格。</translation>
    </message>
    <message>
        <source>%1 MiB of the %2 MiB a %3 has: memory is missing. Return the machine.</source>
        <translation>%1 MiB，而 %3 应有 %2 MiB：显存缺失。请退还这台机器。</translation>
    </message>
    <message>
        <source>%1 MiB (a %2 has %3 MiB).</source>
        <translation>%1 MiB（%2 应有 %3 MiB）。</translation>
    </message>
    <message>
        <source>This GPU reports no ECC (a consumer card, or ECC off).</source>
        <translation>此 GPU 未报告 ECC（消费级显卡，或 ECC 已关闭）。</translation>
    </message>
    <message>
        <source>%1 uncorrectable ECC errors since boot (%2 in its lifetime): work on this GPU is lost. Return the machine.</source>
        <translation>开机以来有 %1 个不可纠正的 ECC 错误（累计 %2 个）：此 GPU 上的工作会丢失。请退还这台机器。</translation>
    </message>
    <message>
        <source>No uncorrectable ECC error since boot, %1 in the GPU&apos;s lifetime: it has had memory faults. Keep an eye on it.</source>
        <translation>开机以来没有不可纠正的 ECC 错误，累计 %1 个：它曾有显存故障。请留意。</translation>
    </message>
    <message>
        <source>No uncorrectable ECC errors (since boot or ever).</source>
        <translation>没有不可纠正的 ECC 错误（开机以来及累计）。</translation>
    </message>
    <message>
        <source>A page retirement is pending: the GPU needs a reset before its memory is safe. Return the machine.</source>
        <translation>有待处理的页面退役：GPU 需要重置后显存才安全。请退还这台机器。</translation>
    </message>
    <message>
        <source>No page retirement pending.</source>
        <translation>没有待处理的页面退役。</translation>
    </message>
    <message>
        <source>Not reported: this GPU remaps rows instead (Ampere and later).</source>
        <translation>未报告：此 GPU 改用行重映射（Ampere 及更新架构）。</translation>
    </message>
    <message>
        <source>A row remapping failed: the GPU has no spare memory rows left. Return the machine.</source>
        <translation>行重映射失败：GPU 已没有备用显存行。请退还这台机器。</translation>
    </message>
    <message>
        <source>A row remap is pending: memory with an uncorrectable error stays in use until the GPU is reset. Return the machine.</source>
        <translation>有待处理的行重映射：含不可纠正错误的显存在 GPU 重置前仍在使用。请退还这台机器。</translation>
    </message>
    <message>
        <source>No row remap pending or failed (%1 rows remapped after uncorrectable errors).</source>
        <translation>没有待处理或失败的行重映射（因不可纠正错误已重映射 %1 行）。</translation>
    </message>
    <message>
        <source>Not reported: row remapping exists on Ampere and later data-centre GPUs.</source>
        <translation>未报告：行重映射仅见于 Ampere 及更新的数据中心 GPU。</translation>
    </message>
    <message>
        <source>nvidia-smi shows no PCIe link (a Grace or virtual GPU?).</source>
        <translation>nvidia-smi 未显示 PCIe 链路（Grace 或虚拟 GPU？）。</translation>
    </message>
    <message>
        <source>Gen%1 x%2 of Gen%3 x%4</source>
        <translation>Gen%1 x%2（最高 Gen%3 x%4）</translation>
    </message>
    <message>
        <source>%1 under load: a degraded link (a bad slot, riser or cable) slows every transfer. Return the machine.</source>
        <translation>负载下 %1：链路降级（插槽、转接卡或线缆有问题）会拖慢每次传输。请退还这台机器。</translation>
    </message>
    <message>
        <source>%1 at idle: links train down when idle, so re-check under load (the active run does).</source>
        <translation>空闲时 %1：链路空闲时会降速，请在负载下复查（主动测试会做）。</translation>
    </message>
    <message>
        <source>%1 active: the hardware cuts the clocks (cooling or power delivery). Return the machine.</source>
        <translation>%1 生效：硬件在降低时钟（散热或供电问题）。请退还这台机器。</translation>
    </message>
    <message>
        <source>SW Thermal Slowdown active: the GPU runs hot and the driver lowers its clocks.</source>
        <translation>SW Thermal Slowdown 生效：GPU 过热，驱动在降低时钟。</translation>
    </message>
    <message>
        <source>nvidia-smi shows no clock event reasons.</source>
        <translation>nvidia-smi 未显示时钟事件原因。</translation>
    </message>
    <message>
        <source>No hardware slowdown, thermal or power-brake event.</source>
        <translation>没有硬件降速、过热或电源制动事件。</translation>
    </message>
    <message>
        <source>Enabled.</source>
        <translation>已启用。</translation>
    </message>
    <message>
        <source>Disabled: the driver tears the GPU down between jobs (slow starts, settings lost). `sudo nvidia-smi -pm 1` fixes it where you have root.</source>
        <translation>已禁用：驱动在作业之间会释放 GPU（启动慢、设置丢失）。有 root 权限时可用 `sudo nvidia-smi -pm 1` 修复。</translation>
    </message>
    <message>
        <source>Not reported (Windows, or a virtual GPU).</source>
        <translation>未报告（Windows 或虚拟 GPU）。</translation>
    </message>
    <message>
        <source>MIG is enabled: programs see slices, not the whole GPU. If you rented whole GPUs, ask the provider.</source>
        <translation>MIG 已启用：程序看到的是切片而非整块 GPU。如果您租的是整块 GPU，请联系服务商。</translation>
    </message>
    <message>
        <source>MIG is off: the whole GPU is yours.</source>
        <translation>MIG 已关闭：整块 GPU 归您使用。</translation>
    </message>
    <message>
        <source>GPU %1 &quot;%2&quot;</source>
        <translation>GPU %1“%2”</translation>
    </message>
    <message>
        <source>No NVLink fabric state shown (not an NVSwitch system, or an older driver).</source>
        <translation>未显示 NVLink fabric 状态（不是 NVSwitch 系统，或驱动较旧）。</translation>
    </message>
    <message>
        <source>The NVLink fabric is not initialised (%1): CUDA fails with error 802 until Fabric Manager runs. Ask the provider, or return the machine.</source>
        <translation>NVLink fabric 未初始化（%1）：Fabric Manager 运行前 CUDA 会报错 802。请联系服务商，或退还这台机器。</translation>
    </message>
    <message numerus="yes">
        <source>NVLink fabric initialised on %n GPU(s).</source>
        <translation>
            <numerusform>%n 块 GPU 上的 NVLink fabric 已初始化。</numerusform>
        </translation>
    </message>
    <message>
        <source>Xid %1 (not in Gantry&apos;s table: look it up in NVIDIA&apos;s Xid catalog)</source>
        <translation>Xid %1（不在 Gantry 的表中：请查阅 NVIDIA 的 Xid 目录）</translation>
    </message>
    <message>
        <source>Xid %1: %2. %3</source>
        <translation>Xid %1：%2。%3</translation>
    </message>
    <message>
        <source>The kernel log cannot be read here (%1), so Xid errors were not checked. With root: `sudo dmesg | grep Xid`.</source>
        <translation>此处无法读取内核日志（%1），因此未检查 Xid 错误。有 root 权限时：`sudo dmesg | grep Xid`。</translation>
    </message>
    <message>
        <source>no dmesg or journalctl access</source>
        <translation>无权访问 dmesg 或 journalctl</translation>
    </message>
    <message>
        <source>No Xid error in the kernel log.</source>
        <translation>内核日志中没有 Xid 错误。</translation>
    </message>
    <message>
        <source>nvidia-smi fails, so no GPU can be checked: %1</source>
        <translation>nvidia-smi 运行失败，无法检查任何 GPU：%1</translation>
    </message>
    <message>
        <source>No NVIDIA driver: nvidia-smi is not installed, so there is no CUDA device to check.</source>
        <translation>没有 NVIDIA 驱动：未安装 nvidia-smi，没有可检查的 CUDA 设备。</translation>
    </message>
    <message>
        <source>GPU stopped processing (timeout)</source>
        <translation>GPU 停止处理（超时）</translation>
    </message>
    <message>
        <source>Restart the application; if it recurs without one, reset the GPU.</source>
        <translation>重启应用；如果没有应用时也复现，请重置 GPU。</translation>
    </message>
    <message>
        <source>Graphics engine exception (usually an application&apos;s illegal memory access)</source>
        <translation>图形引擎异常（通常是应用的非法内存访问）</translation>
    </message>
    <message>
        <source>Restart the application; if different applications hit it, run the acceptance test again.</source>
        <translation>重启应用；如果不同应用都遇到，请重新运行验收测试。</translation>
    </message>
    <message>
        <source>GPU memory page fault (usually an application bug)</source>
        <translation>GPU 显存页错误（通常是应用缺陷）</translation>
    </message>
    <message>
        <source>GPU stopped processing a channel (an application fault)</source>
        <translation>GPU 停止处理某个通道（应用故障）</translation>
    </message>
    <message>
        <source>Restart the application; nothing to do for the machine.</source>
        <translation>重启应用；机器本身无需处理。</translation>
    </message>
    <message>
        <source>Preemptive cleanup after an earlier error or a killed process</source>
        <translation>在先前错误或进程被终止后的预防性清理</translation>
    </message>
    <message>
        <source>Nothing by itself; look at the Xid before it.</source>
        <translation>本身无需处理；请查看它之前的 Xid。</translation>
    </message>
    <message>
        <source>Double-bit (uncorrectable) ECC error</source>
        <translation>双比特（不可纠正）ECC 错误</translation>
    </message>
    <message>
        <source>Reset the GPU; if it recurs, return the machine.</source>
        <translation>重置 GPU；如果复现，请退还这台机器。</translation>
    </message>
    <message>
        <source>Internal micro-controller breakpoint or warning</source>
        <translation>内部微控制器断点或警告</translation>
    </message>
    <message>
        <source>Internal micro-controller halt</source>
        <translation>内部微控制器停机</translation>
    </message>
    <message>
        <source>ECC page retirement or row remapping recorded</source>
        <translation>已记录 ECC 页面退役或行重映射</translation>
    </message>
    <message>
        <source>Reset the GPU so the remap takes effect; watch for more.</source>
        <translation>重置 GPU 使重映射生效；留意是否再次出现。</translation>
    </message>
    <message>
        <source>ECC page retirement or row remapping failed</source>
        <translation>ECC 页面退役或行重映射失败</translation>
    </message>
    <message>
        <source>Return the machine: its memory cannot be repaired.</source>
        <translation>请退还这台机器：其显存无法修复。</translation>
    </message>
    <message>
        <source>Video decoder (NVDEC) exception</source>
        <translation>视频解码器（NVDEC）异常</translation>
    </message>
    <message>
        <source>Restart the application; if it recurs, reset the GPU.</source>
        <translation>重启应用；如果复现，请重置 GPU。</translation>
    </message>
    <message>
        <source>Graphics engine class error</source>
        <translation>图形引擎类错误</translation>
    </message>
    <message>
        <source>NVLink error</source>
        <translation>NVLink 错误</translation>
    </message>
    <message>
        <source>Reset the GPU; if it recurs, return the machine (a link or switch fault).</source>
        <translation>重置 GPU；如果复现，请退还这台机器（链路或交换芯片故障）。</translation>
    </message>
    <message>
        <source>GPU has fallen off the bus</source>
        <translation>GPU 已从总线掉线</translation>
    </message>
    <message>
        <source>Return the machine: a hardware, power or cooling fault.</source>
        <translation>请退还这台机器：硬件、供电或散热故障。</translation>
    </message>
    <message>
        <source>High single-bit ECC error rate</source>
        <translation>单比特 ECC 错误率过高</translation>
    </message>
    <message>
        <source>Watch it; if uncorrectable errors follow, return the machine.</source>
        <translation>请留意；如果随后出现不可纠正错误，请退还这台机器。</translation>
    </message>
    <message>
        <source>Contained ECC error (the affected application was stopped)</source>
        <translation>已隔离的 ECC 错误（受影响的应用已被终止）</translation>
    </message>
    <message>
        <source>Restart the application; reset the GPU when convenient to remap the row.</source>
        <translation>重启应用；方便时重置 GPU 以重映射该行。</translation>
    </message>
    <message>
        <source>Uncontained ECC error</source>
        <translation>未隔离的 ECC 错误</translation>
    </message>
    <message>
        <source>Context switch timeout</source>
        <translation>上下文切换超时</translation>
    </message>
    <message>
        <source>GSP firmware RPC timeout</source>
        <translation>GSP 固件 RPC 超时</translation>
    </message>
    <message>
        <source>Reset the GPU or reboot; if it recurs, return the machine.</source>
        <translation>重置 GPU 或重启；如果复现，请退还这台机器。</translation>
    </message>
    <message>
        <source>GSP firmware error</source>
        <translation>GSP 固件错误</translation>
    </message>
    <message>
        <source>Unrecovered ECC error</source>
        <translation>未恢复的 ECC 错误</translation>
    </message>
    <message>
        <source>GPU recovery action changed (a reset or reboot is required)</source>
        <translation>GPU 恢复操作已变更（需要重置或重启）</translation>
    </message>
    <message>
        <source>Do what the line asks (reset the GPU or reboot); if it recurs, return the machine.</source>
        <translation>按该行提示操作（重置 GPU 或重启）；如果复现，请退还这台机器。</translation>
    </message>
    <message>
        <source>Measuring the data disk and the links between GPUs…</source>
        <translation>正在测量数据盘和 GPU 之间的链路…</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>%1 MB/s</source>
        <translation>%1 MB/s</translation>
    </message>
    <message>
        <source>%1. No achieved figure on record for this machine, so it is shown, not judged.</source>
        <translation>%1。此类机器没有实测参考值，因此仅显示，不作判定。</translation>
    </message>
    <message>
        <source>The GPU-to-GPU copy gave no figure.</source>
        <translation>GPU 间复制没有得出数值。</translation>
    </message>
    <message>
        <source>GPU 0 → GPU %1 (the slowest pair): %2 GB/s</source>
        <translation>GPU 0 → GPU %1（最慢的一对）：%2 GB/s</translation>
    </message>
    <message>
        <source> (some pairs have no peer access: their copies go through host memory)</source>
        <translation>（部分 GPU 之间不能直接互访：它们的复制经由主机内存）</translation>
    </message>
    <message>
        <source>The all-reduce gave no figure.</source>
        <translation>all-reduce 没有得出数值。</translation>
    </message>
    <message numerus="yes">
        <source>All-reduce over %n GPU(s): bus bandwidth %1 GB/s</source>
        <translation>
            <numerusform>%n 块 GPU 的 all-reduce：总线带宽 %1 GB/s</numerusform>
        </translation>
    </message>
    <message>
        <source>The data disk was not measured: %1.</source>
        <translation>未测量数据盘：%1。</translation>
    </message>
    <message>
        <source>The data disk was not measured: dd printed no figure.</source>
        <translation>未测量数据盘：dd 没有输出数值。</translation>
    </message>
    <message>
        <source>%1: write %2%3, read %4%5 (%6 MiB).</source>
        <translation>%1：写入 %2%3，读取 %4%5（%6 MiB）。</translation>
    </message>
    <message>
        <source> (written through with fsync)</source>
        <translation>（经 fsync 写入）</translation>
    </message>
    <message>
        <source> (from the page cache, not judged)</source>
        <translation>（来自页缓存，不作判定）</translation>
    </message>
    <message>
        <source>writes under %1 MB/s stall every checkpoint</source>
        <translation>写入低于 %1 MB/s 会拖慢每次保存检查点</translation>
    </message>
    <message>
        <source>reads under %1 MB/s keep a data loader waiting</source>
        <translation>读取低于 %1 MB/s 会让数据加载器等待</translation>
    </message>
    <message>
        <source>Slow: %1. Keep the data on a local NVMe disk, or ask for one.</source>
        <translation>偏慢：%1。请把数据放在本地 NVMe 盘上，或向服务商要一块。</translation>
    </message>
    <message>
        <source>Measured through PyTorch with CUDA, which this machine does not have.</source>
        <translation>此项通过带 CUDA 的 PyTorch 测量，而这台机器上没有。</translation>
    </message>
    <message>
        <source>The multi-GPU check printed no result.</source>
        <translation>多 GPU 检查没有输出结果。</translation>
    </message>
    <message>
        <source>No machine %1 is recorded: it was forgotten already, or never verified.</source>
        <translation>没有机器 %1 的记录：它已被忘记，或从未验证过。</translation>
    </message>
</context>
<context>
    <name>gantry::workspace::AppCore</name>
    <message>
        <source>Running jobs that end with it: %1.</source>
        <translation>将随之结束的运行中作业：%1。</translation>
    </message>
    <message>
        <source>Folders kept in sync with it, which lose their machine:</source>
        <translation>与它保持同步的文件夹（将失去同步目标）：</translation>
    </message>
</context>
<context>
    <name>gantry::workspace::PolicyLock</name>
    <message>
        <source>Cannot start %1 watch: %2. Start `gantry-cli watch` yourself, or its runs wait for the next Gantry window.</source>
        <translation>无法启动 %1 watch：%2。请自行启动 `gantry-cli watch`，否则这些运行将等到下次打开 Gantry 窗口。</translation>
    </message>
</context>
<context>
    <name>gantry::workspace::PolicyRunner</name>
    <message>
        <source>Gantry cannot stop this machine: it was not launched through a provider Gantry manages. Stop it in your provider&apos;s console.</source>
        <translation>Gantry 无法将这台机器关机：它不是通过 Gantry 管理的云服务商创建的。请在云服务商的控制台中关机。</translation>
    </message>
    <message>
        <source>idle policy</source>
        <translation>空闲策略</translation>
    </message>
</context>
<context>
    <name>gantry::workspace::ResultsHome</name>
    <message>
        <source>Transfers to or from %1 are still queued or running; terminating loses them.</source>
        <translation>与 %1 之间的传输仍在排队或进行中；释放会丢失这些传输。</translation>
    </message>
    <message>
        <source>Results of %1 cannot be downloaded here: no transfer queue.</source>
        <translation>无法在此下载 %1 的结果：没有传输队列。</translation>
    </message>
    <message>
        <source>%1 is not a saved host; its result paths cannot be looked up.</source>
        <translation>%1 不是已保存的主机；无法查找其结果路径。</translation>
    </message>
    <message>
        <source>Cannot connect to %1 to bring its results home: %2</source>
        <translation>无法连接到 %1 以下载其结果：%2</translation>
    </message>
    <message>
        <source>No result files matched on %1; nothing to download.</source>
        <translation>%1 上没有匹配的结果文件；无需下载。</translation>
    </message>
    <message numerus="yes">
        <source>Downloading %n result item(s) from %1 to %2…</source>
        <translation>
            <numerusform>正在从 %1 下载 %n 个结果项到 %2…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n result download(s) failed; see Transfers</source>
        <translation>
            <numerusform>%n 个结果下载失败；请查看“传输”</numerusform>
        </translation>
    </message>
    <message>
        <source>Some results from %1 did not arrive; retry them in Transfers before terminating.</source>
        <translation>%1 的部分结果未下载成功；释放前请在“传输”中重试。</translation>
    </message>
    <message>
        <source>Results of %1 are home in %2; you can terminate it now.</source>
        <translation>%1 的结果已下载到本地 %2；现在可以释放它了。</translation>
    </message>
    <message>
        <source>A copy to or from %1 (through a bucket or from another machine) is still running; terminating stops it half-way.</source>
        <translation>与 %1 之间的复制（经由存储桶或来自另一台机器）仍在进行；释放实例会使其中途停止。</translation>
    </message>
</context>
<context>
    <name>gantry::workspace::Workspace</name>
    <message>
        <source>No provider &quot;%1&quot; is set up; add its API key first.</source>
        <translation>尚未设置云服务商“%1”；请先添加其 API 密钥。</translation>
    </message>
    <message>
        <source>An action on %1 is still running; wait for it to finish.</source>
        <translation>%1 上的操作仍在进行；请等待其完成。</translation>
    </message>
    <message>
        <source>%1 cannot stop instances; terminate instead.</source>
        <translation>%1 不支持实例关机，请改为释放。</translation>
    </message>
    <message>
        <source>The results of %1 could not be brought home (%2), so it was not terminated and keeps billing; %3 cannot stop instances.</source>
        <translation>%1 的结果未能下载到本地（%2），因此未释放，仍在计费；%3 不支持实例关机。</translation>
    </message>
    <message>
        <source>The results of %1 could not be brought home (%2), so it was stopped instead of terminated.</source>
        <translation>%1 的结果未能下载到本地（%2），因此已将其关机，而不是释放。</translation>
    </message>
    <message>
        <source>%1 is stopping; compute billing stops.</source>
        <translation>%1 正在关机；计算费用停止计费。</translation>
    </message>
    <message>
        <source>%1 is starting; compute billing resumes.</source>
        <translation>%1 正在开机；计算费用恢复计费。</translation>
    </message>
    <message>
        <source>%1 is restarting.</source>
        <translation>%1 正在重启。</translation>
    </message>
    <message>
        <source>%1 is being terminated; its billing stops.</source>
        <translation>%1 正在释放；其费用停止计费。</translation>
    </message>
    <message>
        <source>The cost ledger is not open, so %1 cannot be billed; see the warning about cost.sqlite.</source>
        <translation>费用账本未打开，无法为 %1 计费；请查看关于 cost.sqlite 的警告。</translation>
    </message>
    <message>
        <source>No saved host named &quot;%1&quot; (see: gantry-cli hosts list).</source>
        <translation>没有名为“%1”的已保存主机（参见：gantry-cli hosts list）。</translation>
    </message>
    <message>
        <source>The saved hosts are not loaded, so %1 cannot be added.</source>
        <translation>已保存的主机列表未加载，无法添加 %1。</translation>
    </message>
    <message>
        <source>The saved hosts are not loaded, so %1 cannot be removed.</source>
        <translation>已保存的主机列表未加载，无法移除 %1。</translation>
    </message>
    <message>
        <source>The saved hosts are not loaded, so %1 cannot be imported.</source>
        <translation>已保存的主机列表未加载，无法导入 %1。</translation>
    </message>
    <message>
        <source>Gantry is closing; nothing was launched.</source>
        <translation>Gantry 正在关闭；未启动任何实例。</translation>
    </message>
    <message>
        <source>never became active</source>
        <translation>始终未进入运行状态</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Rent, verify, use and watch cloud GPUs.</source>
        <translation>租用、验证、使用和监控云 GPU。</translation>
    </message>
    <message>
        <source>Configuration directory.</source>
        <translation>配置目录。</translation>
    </message>
    <message>
        <source>Save a screenshot of the window to FILE and quit.</source>
        <translation>将窗口截图保存到 FILE 后退出。</translation>
    </message>
    <message>
        <source>Select (and connect) a saved host.</source>
        <translation>选择（并连接）一个已保存的主机。</translation>
    </message>
    <message>
        <source>Open a panel: %1.</source>
        <translation>打开面板：%1。</translation>
    </message>
    <message>
        <source>Show a tab of the selected machine: overview, files, monitor, verify or jobs.</source>
        <translation>显示所选机器的标签页：overview（概览）、files（文件）、monitor（监控）、verify（验证）或 jobs（任务）。</translation>
    </message>
    <message>
        <source>Window size, e.g. 1024x700 (for screenshots).</source>
        <translation>窗口大小，例如 1024x700（用于截图）。</translation>
    </message>
</context>
<context>
    <name>secrets</name>
    <message>
        <source>the OS keychain refused (%1); on Linux start a Secret Service (GNOME Keyring or KWallet) and unlock it, or use an environment variable for this secret</source>
        <translation>系统钥匙串拒绝了请求（%1）；在 Linux 上请启动系统密钥环服务（GNOME Keyring 或 KWallet）并解锁，或改用环境变量提供此密钥</translation>
    </message>
    <message>
        <source>No keyring found on this desktop (no Secret Service or KWallet answers). Set the provider&apos;s environment variable (GANTRY_LAMBDA_API_KEY, …) for this session, or let Gantry keep keys in a file only you can read: Settings → Accounts, or gantry-cli provider-key set --store file.</source>
        <translation>此桌面上未找到密钥环（Secret Service 和 KWallet 均无响应）。请为本次会话设置云服务商的环境变量（GANTRY_LAMBDA_API_KEY 等），或让 Gantry 将密钥保存在仅您可读的文件中：设置 → 账户，或 gantry-cli provider-key set --store file。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is damaged; remove it and store the keys again (Settings → Accounts).</source>
        <translation>%1 已损坏；请删除它并重新保存密钥（设置 → 账户）。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot remove %1; delete it yourself.</source>
        <translation>无法删除 %1；请手动删除。</translation>
    </message>
</context>
<context>
    <name>ssh</name>
    <message>
        <source>disconnected</source>
        <translation>已断开</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>host key not accepted</source>
        <translation>主机密钥未被接受</translation>
    </message>
    <message>
        <source>host key changed</source>
        <translation>主机密钥已变更</translation>
    </message>
    <message>
        <source>cannot connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation>连接已断开</translation>
    </message>
    <message>
        <source>%1 exists already; choose another path or remove it first</source>
        <translation>%1 已存在；请选择其他路径，或先将其删除</translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>could not generate an ed25519 key</source>
        <translation>无法生成 ed25519 密钥</translation>
    </message>
    <message>
        <source>could not export the new key</source>
        <translation>无法导出新密钥</translation>
    </message>
    <message>
        <source>cannot read the key %1 (missing, encrypted or not a key)</source>
        <translation>无法读取密钥 %1（文件不存在、已加密或不是密钥文件）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>could not create an SSH session (out of memory?)</source>
        <translation>无法创建 SSH 会话（内存不足？）</translation>
    </message>
    <message>
        <source>invalid ProxyJump &quot;%1&quot;: %2</source>
        <translation>ProxyJump “%1”无效：%2</translation>
    </message>
    <message>
        <source>connection to %1 cancelled</source>
        <translation>到 %1 的连接已取消</translation>
    </message>
    <message>
        <source>no answer from %1 within %2 s: the machine is down, the port is wrong, or a firewall drops the connection; check the address and that the instance is running</source>
        <translation>%1 在 %2 秒内无响应：机器已宕机、端口错误，或防火墙丢弃了连接；请检查地址，并确认实例正在运行</translation>
    </message>
    <message>
        <source>cannot connect to %1: %2; check the host name and port, and that sshd runs there</source>
        <translation>无法连接到 %1：%2；请检查主机名和端口，并确认对方正在运行 sshd</translation>
    </message>
    <message>
        <source>%1 sent no host key: %2</source>
        <translation>%1 未发送主机密钥：%2</translation>
    </message>
    <message>
        <source>cannot hash the host key of %1</source>
        <translation>无法计算 %1 的主机密钥哈希</translation>
    </message>
    <message>
        <source>host key for %1 changed — possible attack (or the instance was re-created); recorded %2 %3, now %4 %5; if you trust the new key, remove line %6 of %7 (ssh-keygen -R %8%9 -f %7) and connect again</source>
        <translation>%1 的主机密钥已变更——可能遭到攻击（或实例已被重建）；记录的是 %2 %3，现在是 %4 %5；如果你信任新密钥，请删除 %7 的第 %6 行（ssh-keygen -R %8%9 -f %7）后重新连接</translation>
    </message>
    <message>
        <source>host %1 is not known yet; its %2 key fingerprint is %3; compare it with the one your provider shows, then accept it (CLI: --accept-new-host-key)</source>
        <translation>主机 %1 尚未记录；其 %2 密钥指纹为 %3；请与云服务商显示的指纹核对后再接受（CLI：--accept-new-host-key）</translation>
    </message>
    <message>
        <source>cannot record the host key in %1: %2</source>
        <translation>无法将主机密钥记录到 %1：%2</translation>
    </message>
    <message>
        <source>cannot read the known hosts file %1: %2; check its permissions</source>
        <translation>无法读取 known_hosts 文件 %1：%2；请检查其权限</translation>
    </message>
    <message>
        <source>connection to %1 broke during login: %2</source>
        <translation>登录 %1 时连接中断：%2</translation>
    </message>
    <message>
        <source>ssh-agent</source>
        <translation>ssh-agent</translation>
    </message>
    <message>
        <source>%1 (missing)</source>
        <translation>%1（不存在）</translation>
    </message>
    <message>
        <source>cannot unlock key %1: wrong passphrase, or not a private key file</source>
        <translation>无法解锁密钥 %1：密码短语错误，或不是私钥文件</translation>
    </message>
    <message>
        <source>keyboard-interactive</source>
        <translation>keyboard-interactive（键盘交互）</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Password for %1:</source>
        <translation>%1 的密码：</translation>
    </message>
    <message>
        <source>authentication failed for %1 (server accepts: %2; tried: %3); give the right key with -i KEYFILE or a password (--password-env VAR in the CLI), or add your public key to ~/.ssh/authorized_keys on the machine</source>
        <translation>%1 认证失败（服务器接受：%2；已尝试：%3）；请用 -i KEYFILE 指定正确的密钥，或提供密码（CLI 中使用 --password-env VAR），或将你的公钥添加到该机器的 ~/.ssh/authorized_keys</translation>
    </message>
    <message>
        <source>nothing usable</source>
        <translation>无可用方式</translation>
    </message>
    <message>
        <source>not connected to %1; reconnect first</source>
        <translation>未连接到 %1；请先重新连接</translation>
    </message>
    <message>
        <source>cannot open a channel to %1: %2</source>
        <translation>无法打开到 %1 的通道：%2</translation>
    </message>
    <message>
        <source>%1 refused a new session channel (%2); the server&apos;s MaxSessions may be reached</source>
        <translation>%1 拒绝了新的会话通道（%2）；可能已达到服务器的 MaxSessions 上限</translation>
    </message>
    <message>
        <source>%1 refused to run a command: %2</source>
        <translation>%1 拒绝执行命令：%2</translation>
    </message>
    <message>
        <source>%1 did not answer a request to run a command within %2 s; check the connection and retry</source>
        <translation>%1 在 %2 秒内未响应执行命令的请求；请检查连接后重试</translation>
    </message>
    <message>
        <source>cannot reach %1:%2 from %3 (%4): nothing listens on that port on the instance, or the server forbids forwarding (AllowTcpForwarding)</source>
        <translation>无法从 %3 访问 %1:%2（%4）：实例上没有进程监听该端口，或服务器禁止了端口转发（AllowTcpForwarding）</translation>
    </message>
    <message>
        <source>command cancelled on %1</source>
        <translation>%1 上的命令已取消</translation>
    </message>
    <message>
        <source>command on %1 did not finish within %2 s</source>
        <translation>%1 上的命令未在 %2 秒内完成</translation>
    </message>
    <message>
        <source>connection to %1 lost while a command ran</source>
        <translation>在 %1 上执行命令时连接断开</translation>
    </message>
    <message>
        <source>the SSH connection broke while reading</source>
        <translation>读取时 SSH 连接中断</translation>
    </message>
    <message>
        <source>the SSH connection broke while writing</source>
        <translation>写入时 SSH 连接中断</translation>
    </message>
    <message>
        <source>the SSH connection broke</source>
        <translation>SSH 连接中断</translation>
    </message>
    <message>
        <source>unclosed &apos;[&apos; in host &quot;%1&quot;</source>
        <translation>主机“%1”中的“[”未闭合</translation>
    </message>
    <message>
        <source>unexpected text after &apos;]&apos; in &quot;%1&quot;</source>
        <translation>“%1”中的“]”后有多余文本</translation>
    </message>
    <message>
        <source>invalid port &quot;%1&quot; in &quot;%2&quot; (expected 1–65535)</source>
        <translation>“%2”中的端口“%1”无效（应为 1–65535）</translation>
    </message>
    <message>
        <source>no host name in &quot;%1&quot; (expected [user@]host[:port])</source>
        <translation>“%1”中没有主机名（格式应为 [user@]host[:port]）</translation>
    </message>
    <message>
        <source>libssh refused SSH option %1 for %2 (%3); check the host, user and key settings, or update libssh (0.10.6 or newer)</source>
        <translation>libssh 拒绝了 %2 的 SSH 选项 %1（%3）；请检查主机、用户和密钥设置，或升级 libssh（0.10.6 或更新版本）</translation>
    </message>
    <message>
        <source>the host name is empty; give a DNS name or an IP address</source>
        <translation>主机名为空；请填写 DNS 名称或 IP 地址</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host name or IP address (it contains &quot;%2&quot;); give the machine&apos;s DNS name or IP address</source>
        <translation>“%1”不是主机名或 IP 地址（其中包含“%2”）；请填写机器的 DNS 名称或 IP 地址</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a user name (it contains &quot;%2&quot;); give the login name without spaces, quotes or control characters</source>
        <translation>“%1”不是用户名（其中包含“%2”）；请填写不含空格、引号或控制字符的登录名</translation>
    </message>
    <message>
        <source>key file &quot;%1&quot; cannot be used: its path contains &quot;%2&quot;; move or rename the key to a path without quotes, backslashes or control characters</source>
        <translation>无法使用密钥文件“%1”：其路径包含“%2”；请将密钥移动或重命名到不含引号、反斜杠或控制字符的路径</translation>
    </message>
    <message>
        <source>invalid port %1 for %2 (expected 1–65535)</source>
        <translation>%2 的端口 %1 无效（应为 1–65535）</translation>
    </message>
    <message>
        <source>%1 sent more than %2 MiB of output; the command was stopped. If that much output is expected, raise the limit (gantry-cli: --max-output-mib)</source>
        <translation>%1 发送了超过 %2 MiB 的输出；命令已停止。如果确实会有这么多输出，请提高上限（gantry-cli：--max-output-mib）</translation>
    </message>
    <message>
        <source>%1 refused the %2 subsystem: %3</source>
        <translation>%1 拒绝了 %2 子系统：%3</translation>
    </message>
    <message>
        <source>%1 closed the connection before greeting (%2 tries): sshd turns logins away while too many are in progress (its MaxStartups) or after failed ones (PerSourcePenalties), a firewall rule (fail2ban, hosts.deny) refuses this address, or a port forward has no sshd behind it yet (an instance still booting); wait a moment and try again, with fewer transfers to it at once</source>
        <translation>%1 在问候前关闭了连接（已试 %2 次）：sshd 在进行中的登录过多时（其 MaxStartups 设置）或在登录失败之后（PerSourcePenalties）会拒绝新的登录，或防火墙规则（fail2ban、hosts.deny）拒绝了此地址，或端口转发后面还没有运行 sshd（实例仍在启动）；请稍等片刻再试，并减少同时向它发起的传输</translation>
    </message>
</context>
</TS>
