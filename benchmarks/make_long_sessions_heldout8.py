"""Write tests/data/long_sessions_heldout8.json: an eighth held-out set of developer chat, written by hand.

The sessions are one person's chat with a coding assistant over nine months (September 2025 to May 2026): a
bioinformatician in a single-cell genomics lab at KU Leuven, its organoid atlas, a move from Snakemake to
Nextflow, two sequencing batches, public datasets, a GPU workstation, a PI on sabbatical, a paper deadline that
moves, a master student and an intern, a move from Leuven to Mechelen, a Dutch course, running races, a sore
wrist, a holiday in Madeira and a niece's birth. Nothing was tuned on it (tests/data/junk_facts/README.md,
fresh15). Each question's haystack is its supporting sessions and four others, in date order, so the set serves
as a recall set too.

    .venv/bin/python benchmarks/make_long_sessions_heldout8.py
"""

from __future__ import annotations

from pathlib import Path

from long_sessions_kit import A, Question, Sessions, U, questions, write

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "long_sessions_heldout8.json"
QUESTION_DATE = "2026-06-02 09:30"
OTHERS = 4  # sessions in each haystack besides the supporting ones
SEED = 8

# session id -> (its date, its turns), in the order written
SESSIONS = Sessions()


SESSIONS.add(
    "intro-01", "2025-09-08 10:15",
    U("""Hello! Quick intro so you have context for the coming weeks. I'm the bioinformatician in the Vermeulen lab at KU Leuven (Hilde Vermeulen is my PI, I report to her directly). I joined in July. The lab does single-cell RNA-seq on intestinal organoids, mostly patient-derived, and my job is basically everything between the FASTQ files and the figures. The current pipeline is a Snakemake workflow my predecessor wrote, it runs on the VSC Genius cluster. I live in Kessel-Lo, ten minutes by bike from the lab, which is nice.

Anyway, first problem: the workflow dies on the very first rule with this:

```
Building DAG of jobs...
MissingInputException in rule starsolo in file /data/leuven/vsc123/organoid-atlas/workflow/rules/quant.smk, line 14:
Missing input files for rule starsolo:
    output: results/starsolo/ORG07/Solo.out/Gene/filtered/matrix.mtx.gz
    wildcards: sample=ORG07
    affected files:
        raw/ORG07_S7_L001_R2_001.fastq.gz
```

The file is definitely there, I checked with ls."""),
    A("""Let me look at what Snakemake is actually asking for. The message says it wants `raw/ORG07_S7_L001_R2_001.fastq.gz`, and that path is **relative to the working directory Snakemake was started from**, not relative to the Snakefile. So the most common causes are:

1. **You launched from a different directory.** If you ran `snakemake` from `workflow/` instead of the repo root, `raw/` resolves to `workflow/raw/`.
2. **The lane or sample number in the pattern doesn't match.** The rule builds `{sample}_S{num}_L001_R2_001.fastq.gz`; if ORG07 came off the sequencer as `S17` or on lane `L002`, the name differs by one character and `ls` on the "right" file looks fine.
3. **A symlink pointing to scratch that isn't mounted on the login node.** `ls` shows the link, but Snakemake checks the target exists.

Could you run these from the directory you start Snakemake in?

```
pwd
ls -l raw/ORG07*
readlink -f raw/ORG07_S7_L001_R2_001.fastq.gz
```"""),
    U("""ah. it's a symlink into $VSC_SCRATCH and readlink gives a path under /scratch/leuven/ that says No such file or directory. The scratch got cleaned i think. there's a copy on the staging storage."""),
    A("""That explains it: the link is dangling, so from Snakemake's point of view the input doesn't exist. Scratch on the VSC clusters is not backed up and old files can be removed, so it's not a good home for raw data anyway.

I'd fix it in two steps:

- Point `raw/` at the copy on staging (or copy the FASTQs into `$VSC_DATA` if your quota allows it), and regenerate the links with a small script instead of by hand, so they're reproducible.
- Add a check rule or a `validate` step at the start of the workflow that fails with a clear message when a FASTQ link is dangling, rather than the generic MissingInputException.

Something like:

```
for f in /staging/leuven/stg_00123/organoid_raw/*.fastq.gz; do
  ln -sf "$f" raw/$(basename "$f")
done
find raw/ -xtype l   # lists any links that are still broken
```

If `find -xtype l` prints nothing, rerun with `snakemake -n` first to confirm the DAG builds."""),
    U("""dry run builds now, 212 jobs. thanks"""),
    U("""one more: the workflow has a rule that runs fastqc on every fastq and takes forever. is it worth keeping?"""),
    A("""FastQC per FASTQ is cheap per file but adds up with 2 reads x 4 lanes x 24 samples. For 10x data it also tells you little: the barcode read always "fails" per-base content and the cDNA read has adapter and polyA tails by design. I'd keep it, but make it non-blocking (no downstream rule depends on it) and add MultiQC on top so you look at one report instead of 192. STARsolo's or simpleaf's own summaries (valid barcodes, reads mapped to genes, saturation) are the QC metrics that matter for single-cell."""),
    U("""ok making it non-blocking + multiqc"""),
)

SESSIONS.add(
    "snake-01", "2025-09-10 14:02",
    U("""Next thing. I want Snakemake to submit to SLURM instead of me running everything in an interactive job. We use STARsolo for quantification, mainly because the genomics core facility runs STARsolo too and Hilde wants our counts to match theirs exactly. The starsolo rule needs 16 threads and about 40G. I tried the slurm executor plugin and got:

```
Error in rule starsolo:
    message: SLURM-job '61234987' failed, SLURM status is: 'FAILED'. For further error details see the cluster/cloud log and the log files of the involved rule(s).
    jobid: 7
    input: raw/ORG03_S3_L001_R1_001.fastq.gz, raw/ORG03_S3_L001_R2_001.fastq.gz
    output: results/starsolo/ORG03/Solo.out/Gene/filtered/matrix.mtx.gz
    log: logs/starsolo/ORG03.log (check log file(s) for error details)
```

and logs/starsolo/ORG03.log just ends with `slurmstepd: error: Detected 1 oom_kill event in StepId=61234987.batch`"""),
    A("""The OOM line is the real error: the job got less memory than STAR needed. With the SLURM executor plugin, resources come from the rule's `resources:` block (or a profile), and if nothing is set the job gets the partition's default memory per CPU, which on Genius is small.

Let me suggest a profile so you don't hard-code cluster details in rules. Create `profiles/genius/config.yaml`:

```yaml
executor: slurm
jobs: 50
default-resources:
  slurm_account: lp_vermeulen
  slurm_partition: batch
  runtime: 120
  mem_mb: 4000
set-resources:
  starsolo:
    mem_mb: 48000
    runtime: 240
set-threads:
  starsolo: 16
```

A few notes on the numbers:

- STAR loads the whole genome index into memory. For GRCh38 that's about 30-32 GB, and the solo counting adds several GB on top depending on the number of barcodes, so 40G is cutting it close. 48000 MB gives headroom.
- `runtime` is in minutes. A 300M-read library with 16 threads usually finishes in 60-90 minutes; 240 leaves room for queue-node variation.
- Keep `--genomeLoad NoSharedMemory` (the default); shared memory doesn't work across SLURM jobs anyway.

Then run:

```
snakemake --profile profiles/genius
```

If a job still dies, `sacct -j <jobid> --format=JobID,MaxRSS,ReqMem,Elapsed,State` will show how much it actually used."""),
    U("""ok that worked, ORG03 finished in 71 min. MaxRSS 38.9G"""),
    A("""Good, so 48G is the right ballpark with about 20% margin. I'd leave it there rather than tune it down; the queue time difference between 40G and 48G on a batch node is negligible."""),
    U("""also is there a way to see which rule is eating the most cpu hours over a full run? hilde asks about it for the credit report"""),
    A("""Yes, Snakemake can write a per-job benchmark file. Add a `benchmark:` directive to the rules you care about:

```
rule starsolo:
    ...
    benchmark: "benchmarks/starsolo/{sample}.tsv"
```

Each file has wall time (`s`), `max_rss`, `cpu_time` and more. After a run, concatenate them with pandas and sum `cpu_time` per rule. For the whole cluster side, `sacct -S 2025-09-01 -u $USER --format=JobName,CPUTimeRAW -P` and a group-by on JobName gives the same per rule, since the slurm executor names jobs after the rule."""),
    U("""perfect"""),
)

SESSIONS.add(
    "qc-01", "2025-09-15 09:48",
    U("""can you sanity check my QC cutoffs. scanpy, per-sample filtering:

min_genes = 200
max pct mito = 20
min cells per gene = 3

organoids so mito is higher than in tissue. output of the summary cell:

```
sample   n_cells_raw  n_cells_kept  median_genes  median_pct_mt
ORG01    8412         7305          2411          9.8
ORG02    9120         8011          2230          11.2
ORG03    6011         4198          1870          17.5
ORG04    7730         6902          2604          8.1
```"""),
    A("""Those cutoffs are reasonable starting points for organoids, and the summary looks healthy for ORG01, ORG02 and ORG04. ORG03 stands out: it keeps only 70% of cells and has a median mitochondrial fraction of 17.5%, close to the 20% cutoff, which usually means stressed or dying cells in that dissociation rather than a biological difference.

Some suggestions:

1. **Look at the distributions, not just the medians.** Plot `pct_counts_mt` against `n_genes_by_counts` per sample. A second cluster of cells with low gene counts and high mito is the damaged population; the threshold should sit between the clusters.
2. **Consider per-sample MAD-based thresholds** (e.g. 3-5 median absolute deviations from the median) instead of a single global cutoff. With patient-derived organoids the baselines genuinely differ between donors.
3. **min_genes = 200 is permissive.** It's the scanpy tutorial default, and for 10x v3 chemistry with your median of ~2,000+ genes it will keep a fair amount of empty droplets carrying ambient RNA. You can keep it for now, but run a doublet and ambient check (scDblFinder or scrublet, and SoupX or CellBender) before clustering.
4. Keep `min_cells = 3` for genes; it only trims noise.

For ORG03 specifically, I'd check the lab notebook for that dissociation. If it was a long digestion, flag it as a candidate to exclude or to re-sequence."""),
    U("""Hilde says ORG03 dissociation was 45 min instead of 20, so yeah. keeping it but flagging it. Staying with 200 for now."""),
    A("""Sensible. Record the flag in the sample metadata (`qc_flag = "long_dissociation"`) rather than in a notebook comment, so it follows the sample into every downstream object and someone can filter on it later."""),
    U("""added a qc_flag column to samples.tsv"""),
    U("""what's a good plot to show per-sample QC for lab meeting? something one slide"""),
    A("""A single figure with three violin (or box) plots side by side, one per metric, samples on the x-axis: genes per cell, UMIs per cell (log scale) and percent mitochondrial reads. Draw the cutoffs as dashed horizontal lines and colour flagged samples (ORG03) differently. Underneath, a small bar chart of cells kept per sample. In scanpy:

```python
sc.pl.violin(adata, ["n_genes_by_counts", "total_counts", "pct_counts_mt"], groupby="sample", rotation=90, multi_panel=True)
```

For lab meeting, a seaborn version with the cutoff lines is easier to read than scanpy's default."""),
)

SESSIONS.add(
    "batch-01", "2025-09-22 11:30",
    U("""The first sequencing batch is in: 24 samples on one NovaSeq X run, from the genomics core. Here's the sample sheet they sent, can you turn it into a samples.tsv for the workflow (sample, donor, condition, fastq prefix)?

```
Lane,Sample_ID,Sample_Name,index,index2,Description
1,GC-25-1101,ORG01_D1_ctrl,SI-TT-A1,,donor1 control
1,GC-25-1102,ORG02_D1_TNF,SI-TT-A2,,donor1 TNF
1,GC-25-1103,ORG03_D2_ctrl,SI-TT-A3,,donor2 control
1,GC-25-1104,ORG04_D2_TNF,SI-TT-A4,,donor2 TNF
...
1,GC-25-1124,ORG24_D12_TNF,SI-TT-C12,,donor12 TNF
```

12 donors, control vs TNF each."""),
    A("""Here's a small Python script that parses the sheet and writes the TSV, so you can rerun it for the next batch:

```python
import csv
import re

rows = []
with open("SampleSheet.csv") as fh:
    for rec in csv.DictReader(fh):
        m = re.match(r"(ORG\\d+)_(D\\d+)_(\\w+)", rec["Sample_Name"])
        sample, donor, condition = m.groups()
        rows.append({
            "sample": sample,
            "donor": donor,
            "condition": condition,
            "fastq_prefix": rec["Sample_ID"],
            "batch": "B1",
        })

with open("config/samples.tsv", "w", newline="") as out:
    w = csv.DictWriter(out, fieldnames=rows[0].keys(), delimiter="\\t")
    w.writeheader()
    w.writerows(rows)
```

I added a `batch` column now: when the second batch arrives you'll want it as a covariate for integration, and it is much easier to have it from the beginning than to retrofit it.

One check worth doing right after: `cut -f2,3 config/samples.tsv | sort | uniq -c` should show 12 donors, each with one ctrl and one TNF."""),
    U("""perfect. all 12 donors x 2."""),
    U("""oh and the core says the run had 2.1 billion reads passing filter, so ~87M per sample on average. is that enough?"""),
    A("""For 10x 3' v3 with ~6,000-8,000 recovered cells per sample, 87M reads is about 11,000-14,000 reads per cell, which is within 10x's recommended minimum of 20,000 reads per cell only if you recover fewer cells. It's on the low side for detecting lowly expressed transcription factors, but fine for cell-type annotation and differential abundance. Check the sequencing saturation in the STARsolo `Summary.csv`: above ~50% you gain little from more depth."""),
    U("""Summary.csv for ORG05 says Sequencing Saturation 0.61 so I guess fine"""),
    A("""Yes, at 61% saturation more reads would mostly re-sequence UMIs you've already seen. That library is well sequenced for its cell number."""),
)

SESSIONS.add(
    "run-01", "2025-09-29 19:40",
    U("""Non-work question. I signed up for the 10 km at the Leuven Marathon on Sunday 19 October. I run three times a week, about 25 km total, my 10k pace is around 5:00/km. Anything I should do in the last three weeks?"""),
    A("""Three weeks out is a good time to sharpen rather than build. A simple plan:

**Week 1 (now):** keep your three runs. Make one of them a session of 5 x 1 km at slightly faster than goal pace (4:50/km) with 2 minutes easy jogging between. Keep the long run at 12-14 km, easy.

**Week 2:** one session of 3 x 2 km at goal pace, one easy 8 km, one 12 km easy. This is your last hard week.

**Race week:** cut volume by about 40%. A short run on Tuesday with 4 x 200 m strides, an easy 5 km on Thursday or Friday, and rest the day before.

On the day: start a little slower than you want to for the first kilometre (crowded starts make everyone go out too fast), settle into 5:00/km, and push from 8 km if you feel good. A sub-50 finish is realistic on your numbers."""),
    U("""nice, sub 50 is the goal"""),
    A("""Good luck! One more thing: don't try anything new on race day, not new shoes, not a new breakfast, not a gel you haven't tested in training."""),
    U("""haha noted, same oatmeal as always"""),
)

SESSIONS.add(
    "student-01", "2025-10-02 08:55",
    U("""Good morning. We have a master student starting Monday, Ines Moreau, she'll work on the TNF response in the organoids for her thesis. I'm her daily supervisor (Hilde is the promotor). Could you help me write an onboarding checklist? She knows Python and some R, never used a cluster."""),
    A("""Happy to. Here's a checklist you can paste into the lab wiki and tick off with her during the first week:

**Accounts and access (day 1)**
- KU Leuven u-number and VSC account request (the VSC account takes a few days to approve, so submit it on day 1)
- Added to the `lp_vermeulen` project credits and the staging group
- GitHub organisation invite, with read access to `organoid-atlas`
- Lab Slack / Teams channel, lab calendar, shared drive

**Local setup (day 1-2)**
- SSH key pair generated and uploaded to the VSC account page
- VS Code with the Remote-SSH extension, or a terminal she is comfortable with
- A personal conda/mamba environment from the repo's `environment.yml`

**Cluster basics (week 1)**
- The difference between login nodes and compute nodes, and why nothing heavy runs on login nodes
- Storage: `$VSC_HOME` (tiny), `$VSC_DATA` (backed up), `$VSC_SCRATCH` (fast, not backed up, cleaned)
- Submitting and monitoring a job: `sbatch`, `squeue -u $USER`, `sacct`
- An interactive session with `srun --pty bash` for notebooks

**The project (week 1-2)**
- Read the README and run the workflow on two small samples end to end
- Walk through the QC notebook together and explain the cutoffs and the ORG03 flag
- Agree on a branch naming scheme and that every analysis lives in a notebook under `analysis/ines/`

**Data rules**
- Patient-derived samples: no raw data leaves the university storage, no FASTQs on laptops
- Sample IDs only, never donor names or hospital numbers

I'd also schedule a 15-minute check-in every morning for the first two weeks; students rarely ask when they're stuck on setup."""),
    U("""great, added. making her a VSC account request today"""),
    U("""what should her first small task be? something real but not scary"""),
    A("""Something that produces a visible result within a week and touches the whole stack once:

- **Reproduce one figure from the QC notebook for two samples**, starting from the count matrices on the cluster: she learns to log in, start an interactive job, open the pixi/conda environment, load an AnnData and plot. Small, real, and she can show it at lab meeting.
- Then **a small code change through a pull request**: e.g. add the `qc_flag` column to the summary table. She learns the branch-PR-review cycle on something harmless.

Avoid giving her the TNF analysis itself in week one; the biology question is more motivating once the tooling no longer gets in the way."""),
    U("""qc figure reproduction it is"""),
)

SESSIONS.add(
    "geo-01", "2025-10-07 13:20",
    U("""I want to integrate some public organoid data with ours. I picked three GEO series: GSE148366, GSE165318 and GSE201421 (two human small intestine organoid sets and one colon). fasterq-dump keeps failing on the third:

```
$ fasterq-dump SRR19283746 --split-files -e 8 -O sra/
2025-10-07T11:14:52 fasterq-dump.3.0.10 err: cmn_iter.c cmn_read_uint8_array( #157286400 ).VCursorCellDataDirect() -> RC(rcPath,rcName,rcResolving,rcName,rcNotFound)
2025-10-07T11:14:52 fasterq-dump.3.0.10 err: row #157286400 : READ.len(126) != QUALITY.len(0) (D)
fasterq-dump quit with error code 3
```"""),
    A("""That error usually means fasterq-dump streamed the run over the network and the connection dropped partway (the QUALITY column came back empty at row 157,286,400). Streaming large runs is fragile; the reliable approach is to download the `.sra` file first with `prefetch`, then convert locally:

```
prefetch SRR19283746 --max-size 100G -O sra_cache/
vdb-validate sra_cache/SRR19283746/SRR19283746.sra
fasterq-dump sra_cache/SRR19283746/SRR19283746.sra --split-files -e 8 -O sra/ --temp $VSC_SCRATCH/tmp
```

Two more things for 10x data on SRA:

- Many 10x submissions only have the cDNA read as a "technical" or are missing the barcode read in the SRA-normalised format. Check with `vdb-dump --info SRR19283746`. If the barcode read is missing, download the original BAM (submitted file) from the SRA cloud data delivery and use `bamtofastq` from 10x.
- Set `--temp` to scratch, otherwise fasterq-dump writes its temporary files in the current directory, which may be your home quota."""),
    U("""prefetch + local conversion worked. all three series downloaded, 31 runs total."""),
    U("""the metadata in GEO is a mess, one series has donor ages in the title field. any tips for harmonising"""),
    A("""Build one metadata table by hand for the public samples, with the same columns as your own `samples.tsv` (sample, donor, condition, batch, tissue, chemistry, study), and fill it from GEO's series matrix files plus the papers' supplements. `GEOparse` in Python gives you the characteristics fields per sample:

```python
import GEOparse
gse = GEOparse.get_GEO("GSE148366", destdir="geo_cache")
meta = gse.phenotype_data
```

Then normalise the vocabulary with an explicit mapping (`{"Small intestine": "small_intestine", "ileum": "small_intestine", ...}`) rather than regexes, so each decision is visible. Add a `study` column: it's the batch key for the public data, since each study is its own batch."""),
)

SESSIONS.add(
    "cloud-01", "2025-10-14 16:05",
    U("""We got AWS research credits and Hilde wants me to test whether running the big realignments on AWS Batch is worth it vs the cluster queue. I ran the GEO stuff there last week. The October bill so far is €312 which feels like a lot for 31 runs. Cost explorer breakdown:

EC2 spot (c6i.8xlarge)      €141.20
EBS volumes                  €96.75
S3 storage + requests        €38.10
Data transfer out            €36.40

thoughts?"""),
    A("""Looking at the breakdown, compute is less than half of the bill. The other half is mostly avoidable:

- **EBS (€96.75):** that's large for a batch workload. It usually means either the compute environment's launch template gives each instance a big gp3 root volume that is provisioned for the whole instance lifetime, or volumes were left behind after instances terminated. Check `aws ec2 describe-volumes --filters Name=status,Values=available` for orphans, and set `DeleteOnTermination=true`.
- **Data transfer out (€36.40):** you're paying to bring results back to Leuven. Copy only the count matrices and QC summaries back, not BAMs; keep intermediates in S3 with a lifecycle rule that moves them to Glacier or deletes them after 30 days.
- **S3 (€38.10):** fine, but the same lifecycle rule will bring it down.

Compute at €141 for 31 alignments is about €4.55 per run, which is competitive. If you fix the storage side, a realistic cost would be around €180-200 for the same work. Whether that beats the cluster depends on your queue times: if the Genius batch queue gets you through in a day or two, the cluster is free for you and AWS is only worth it for deadline crunches."""),
    U("""yeah the launch template had 500GB gp3 volumes. fixed. i'll write that up for Hilde"""),
    U("""how do I find the orphaned volumes across all regions? we used eu-west-1 and eu-central-1"""),
    A("""Loop over the regions and list volumes in the `available` state (not attached to anything):

```
for r in eu-west-1 eu-central-1; do
  aws ec2 describe-volumes --region $r \
    --filters Name=status,Values=available \
    --query 'Volumes[].[VolumeId,Size,CreateTime]' --output table
done
```

Check the list, then delete with `aws ec2 delete-volume --volume-id vol-... --region ...`. Snapshots can also linger: `aws ec2 describe-snapshots --owner-ids self`."""),
    U("""found 9 orphaned 500GB volumes in eu-west-1. deleted. ouch"""),
)

SESSIONS.add(
    "run-02", "2025-10-20 08:10",
    U("""ran the 10k yesterday!! 48:12, sub 50 achieved. legs are dead today. Anyway back to work: quick pandas question, how do I get the top 5 genes per cluster from a long dataframe with columns cluster, gene, logfc"""),
    A("""Congratulations, 48:12 is well under your goal!

For the pandas question:

```python
top5 = (
    df.sort_values("logfc", ascending=False)
      .groupby("cluster", group_keys=False)
      .head(5)
)
```

`groupby(...).head(5)` keeps the first five rows of each group in the current order, so sorting first gives you the top five by log fold change. If you want them as a wide table for a figure:

```python
top5.assign(rank=top5.groupby("cluster").cumcount() + 1).pivot(index="rank", columns="cluster", values="gene")
```"""),
    U("""ty"""),
    U("""and how do i sort clusters numerically in the pivot, they're strings so 10 comes before 2"""),
    A("""Convert the column to an ordered categorical (or to int) before pivoting:

```python
top5["cluster"] = top5["cluster"].astype(int)
```

If cluster names are like "c10", use `key=lambda s: s.str[1:].astype(int)` in `sort_values` on the column index after pivoting."""),
    U("""astype int, obviously. brain still recovering from the run"""),
)

SESSIONS.add(
    "env-01", "2025-10-23 15:44",
    U("""conda solve for the workflow env takes 25 minutes on the login node and sometimes gets killed. environment.yml has scanpy, anndata, scvi-tools, snakemake, star, samtools, r-base, bioconductor-scdblfinder and ~40 other things"""),
    A("""Mixing Python ML packages, R and Bioconductor in one environment is the classic way to make the solver suffer. A few options, roughly in order of effort:

1. **Use mamba (or conda >= 23.10 with the libmamba solver).** `conda config --set solver libmamba`. This alone usually brings a 25-minute solve down to one or two minutes.
2. **Split the environment.** Snakemake supports per-rule `conda:` directives, so STAR/samtools, the Python analysis and the R/Bioconductor steps can each have a small env. Small envs solve fast and break less.
3. **Pin channels strictly**: `channel_priority: strict` with conda-forge before bioconda, and drop `defaults`.
4. **Lock files** (conda-lock, or a tool like pixi) so the solve happens once and everyone installs the exact same packages.

I'd start with 1 and 2; they fit what you have."""),
    U("""ok. we stick with mamba for now and split into three envs, I don't want to introduce another tool while Ines is still learning conda."""),
    A("""That's sensible. With `--use-conda` and per-rule envs, Snakemake will create each env once and cache it under `.snakemake/conda/`, so the cost is only paid on the first run."""),
    U("""how do I tell snakemake to use mamba instead of conda for the per rule envs"""),
    A("""Recent Snakemake versions (8+) use conda with the libmamba solver automatically if it's configured; the old `--conda-frontend mamba` option still works in 7.x. Check with `snakemake --version`. Either way, set `conda config --set solver libmamba` once on the cluster so both your interactive installs and Snakemake benefit."""),
    U("""8.20, so fine"""),
)

SESSIONS.add(
    "nf-01", "2025-11-03 10:05",
    U("""Big decision made on Friday: we're moving the pipeline from Snakemake to Nextflow. Reason is mainly that the genomics core switched to nf-core/scrnaseq and Hilde wants us on the same framework so they can run our pipeline for other groups, plus nf-core gives us tested modules for free. I started porting today. How would you structure it? I want to keep our custom QC and the doublet step."""),
    A("""Good reason to switch: sharing one framework with the core facility will save you maintenance in the long run. Let me sketch a structure that keeps your own logic while reusing nf-core where it fits.

**Layout**

```
organoid-atlas-nf/
├── main.nf
├── nextflow.config
├── conf/
│   ├── base.config        # resource labels (process_low/medium/high)
│   └── vsc_genius.config  # executor slurm, queue, account, scratch
├── modules/
│   ├── nf-core/           # installed with `nf-core modules install`
│   │   ├── star/genomegenerate/
│   │   └── fastqc/
│   └── local/
│       ├── starsolo.nf
│       ├── scanpy_qc.nf
│       └── scdblfinder.nf
├── subworkflows/local/
│   └── quantify.nf
├── bin/                   # your Python/R scripts, put on PATH automatically
│   ├── qc.py
│   └── doublets.R
└── assets/samplesheet_schema.json
```

**Porting strategy**

1. Start with the samplesheet: nf-core pipelines take a CSV, and nf-schema validates it. Reuse the samples.tsv columns (sample, donor, condition, batch, fastq paths).
2. Port one rule at a time into a process, bottom-up: STARsolo first, then QC, then doublets. Each Snakemake rule's `shell:` becomes the process `script:` almost unchanged.
3. Scripts that were in `scripts/` move to `bin/` and are called by name.
4. Resources: don't put memory in each process. Use labels (`label 'process_high'`) and set the numbers in `conf/base.config`, with the cluster-specific bits in `conf/vsc_genius.config`.
5. Keep the Snakemake pipeline runnable until the Nextflow one reproduces its matrices exactly. Compare the filtered matrices with a small script: same barcodes, same counts.

**Things that trip people coming from Snakemake**

- Nextflow is push-based (channels flow forward), Snakemake pull-based (targets pull rules). You don't declare outputs by filename patterns; processes emit files into channels.
- Sample metadata travels as a `meta` map alongside files: `tuple val(meta), path(reads)`. Everything downstream can use `meta.id`, `meta.donor`.
- The work directory: every task runs in `work/xx/hash/`. Put it on scratch (`-w $VSC_SCRATCH/work`), and use `publishDir` to copy the final files out.
- `-resume` is your friend; it uses the hashes, so edits to a script in `bin/` rerun only the affected tasks.

Would you like me to write the STARsolo process first?"""),
    U("""yes please, starsolo first"""),
    A('''```groovy
process STARSOLO {
    tag "$meta.id"
    label 'process_high'

    input:
    tuple val(meta), path(reads)
    path index
    path whitelist

    output:
    tuple val(meta), path("${meta.id}/Solo.out/Gene/filtered"), emit: filtered
    tuple val(meta), path("${meta.id}/Log.final.out"),          emit: log

    script:
    """
    STAR --runThreadN $task.cpus \\
        --genomeDir $index \\
        --readFilesIn ${reads[1]} ${reads[0]} \\
        --readFilesCommand zcat \\
        --soloType CB_UMI_Simple \\
        --soloCBwhitelist $whitelist \\
        --soloUMIlen 12 \\
        --outSAMtype None \\
        --outFileNamePrefix ${meta.id}/
    """
}
```

Note the read order: STAR wants the cDNA read first and the barcode read second, which is R2 then R1 for 10x.'''),
    U("""how do I get the index + whitelist in as value channels so every sample uses the same one"""),
    A("""Pass them as paths created with `file()` (or `Channel.value(...)`) so they're reused for every item of the reads channel instead of being consumed once:

```groovy
workflow QUANTIFY {
    take:
    ch_reads   // [ meta, [R1, R2] ]

    main:
    index     = file(params.star_index, checkIfExists: true)
    whitelist = file(params.whitelist, checkIfExists: true)
    STARSOLO(ch_reads, index, whitelist)

    emit:
    filtered = STARSOLO.out.filtered
}
```

A plain `file()` object passed to a process input is treated as a value, so all 24 tasks get the same index. If you created them with `Channel.fromPath(...)` instead, that makes a queue channel with one item, and only the first sample would run: the most common "why did only one task run" question."""),
    U("""that was exactly my bug lol, only ORG01 ran"""),
)

SESSIONS.add(
    "course-01", "2025-11-12 12:30",
    U("""fyi I'm off to Barcelona next week for the Seqera Nextflow training (Tue 18 to Thu 20 Nov), Hilde approved it from the lab's training budget. Before I go, I'm confused by closures. what does this do

```groovy
ch_reads.map { meta, reads -> [ meta + [single_end: reads.size() == 1], reads ] }
```"""),
    A("""It transforms every item in the channel. Each item is a list of two elements, `meta` (a map) and `reads` (a list of files). The closure `{ meta, reads -> ... }` destructures the pair, and returns a new pair:

- `meta + [single_end: reads.size() == 1]` creates a **new** map with everything in `meta` plus a `single_end` key, true if there's only one read file. Using `+` instead of `meta.single_end = ...` matters: channels can share the same map object between items, and mutating it in place causes hard-to-find bugs with `-resume`.
- `reads` is passed through unchanged.

So `[ [id:'ORG01'], [R1.fq.gz, R2.fq.gz] ]` becomes `[ [id:'ORG01', single_end:false], [R1.fq.gz, R2.fq.gz] ]`.

Enjoy Barcelona. The Seqera training is good on exactly this kind of channel gymnastics."""),
    U("""and what's the difference between map and flatMap"""),
    A("""`map` returns exactly one output item per input item. `flatMap` returns a list per input item and then emits each element of that list as a separate item.

```groovy
Channel.of(1, 2).map { [it, it * 10] }      // emits [1, 10], [2, 20]
Channel.of(1, 2).flatMap { [it, it * 10] }  // emits 1, 10, 2, 20
```

A typical use in your pipeline: one item per sample with a list of lane files, and `flatMap` to get one item per lane for FastQC."""),
    U("""got it"""),
    U("""ok do the lane example with the meta map"""),
    A("""```groovy
ch_samples   // [ meta, [ L001_R1, L001_R2, L002_R1, L002_R2 ] ]
    .flatMap { meta, files ->
        files.collate(2).withIndex().collect { pair, i ->
            [ meta + [lane: i + 1], pair ]
        }
    }
    // -> [ [id:'ORG01', lane:1], [L001_R1, L001_R2] ], [ [id:'ORG01', lane:2], [L002_R1, L002_R2] ]
```

`collate(2)` groups the flat list into R1/R2 pairs (it assumes the files are sorted by lane, then read), and each pair becomes its own channel item with the lane in its meta map."""),
)

SESSIONS.add(
    "nf-02", "2025-11-26 17:12",
    U("""IT RUNS. first full run of the nextflow version on genius, all 24 samples of batch 1:

```
N E X T F L O W  ~  version 25.04.6
Launching `main.nf` [jolly_turing] DSL2 - revision: 3e1c9a7

executor >  slurm (97)
[7a/1c2f3e] ORGANOID:QUANTIFY:STARSOLO (ORG24)    [100%] 24 of 24 ✔
[b4/99d0aa] ORGANOID:QC:SCANPY_QC (ORG24)         [100%] 24 of 24 ✔
[0c/4e51b7] ORGANOID:QC:SCDBLFINDER (ORG24)       [100%] 24 of 24 ✔
[e2/7f00c1] ORGANOID:MERGE                         [100%] 1 of 1 ✔
Completed at: 26-Nov-2025 16:58:41
Duration    : 3h 12m 5s
CPU hours   : 412.6
Succeeded   : 73
Cached      : 24
```

and the matrices are identical to the snakemake ones, I diffed all 24. what should I clean up before I tell the core they can use it"""),
    A("""Congratulations, identical matrices on the first full run is a great result. Before handing it to the core, I'd go through this list:

1. **Pin the Nextflow version** in `nextflow.config` with `manifest.nextflowVersion = '!>=25.04.0'` so the core doesn't run it on an older version by accident.
2. **Containers instead of conda.** The core almost certainly runs with Apptainer. Give every local process a `container` directive (the nf-core modules already have one) and test with `-profile apptainer`.
3. **A test profile** with two tiny samples (subsampled to ~1M reads) so they can check an install in a few minutes: `-profile test,apptainer`.
4. **Parameter schema**: `nextflow_schema.json` with descriptions, so `--help` works and bad parameters fail early.
5. **Move the VSC-specific config out** of `nextflow.config` into `conf/vsc_genius.config`, selected with `-profile vsc_genius`. The core's cluster will have its own.
6. **README** with one command to run the test profile and one for a real run, and the samplesheet format.
7. **Tag a release** (`v0.1.0`) so the core runs a fixed revision with `-r v0.1.0`.

The 3h12m for 24 samples is fine. The 412 CPU hours are dominated by STARsolo; nothing to optimise there yet."""),
    U("""ok do it, start with the test profile"""),
    A("""Let me write `conf/test.config`:

```groovy
params {
    config_profile_name        = 'Test profile'
    config_profile_description = 'Two subsampled organoid libraries to check the pipeline runs'
    input      = "${projectDir}/assets/test/samplesheet_test.csv"
    star_index = 'https://github.com/vermeulen-lab/test-datasets/raw/main/star_index_chr21.tar.gz'
    max_cpus   = 4
    max_memory = '12.GB'
    max_time   = '1.h'
}
```

And the two test libraries: subsample with `seqtk sample -s 42 R1.fastq.gz 1000000`, using the same seed for R1 and R2 so the pairs stay in sync, and align against a chr21-only index so the index fits in 12 GB."""),
    U("""the core also asked whether it works with their nextflow tower / seqera platform setup"""),
    A("""It should work without changes: Seqera Platform runs any Nextflow pipeline from a Git repository and picks up the profiles you define. What they'll need from you: the repository URL and a release tag, the `nextflow_schema.json` (the Platform builds its launch form from it), and a note on which profile to use for their compute environment. Test once with their setup before announcing it."""),
)

SESSIONS.add(
    "gpu-01", "2025-12-02 11:22",
    U("""trying scVI for integration on the lab workstation (the one under my desk, two A100 40GB cards). training is weirdly slow, 14 min per epoch on 190k cells. nvidia-smi while it runs:

```
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|=========================================+========================+======================|
|   0  NVIDIA A100-PCIE-40GB          Off |   00000000:3B:00.0 Off |                    0 |
| N/A   38C    P0             41W /  250W |    2210MiB /  40960MiB |      3%      Default |
|   1  NVIDIA A100-PCIE-40GB          Off |   00000000:AF:00.0 Off |                    0 |
| N/A   33C    P0             35W /  250W |       4MiB /  40960MiB |      0%      Default |
+-----------------------------------------+------------------------+----------------------+
```"""),
    A("""GPU utilisation at 3% with only 2.2 GB used means the GPU is idle almost all the time, waiting for data. With scVI that almost always comes from one of these:

1. **The AnnData is backed or sparse on disk.** If you opened it with `sc.read_h5ad(..., backed='r')`, every minibatch reads from disk. Load it fully into memory (190k cells x 3,000 HVGs is small).
2. **You're training on all genes.** Subset to highly variable genes first (`sc.pp.highly_variable_genes(adata, n_top_genes=3000, batch_key="batch", flavor="seurat_v3", layer="counts")`), then `adata = adata[:, adata.var.highly_variable].copy()`.
3. **The batch size is the default 128.** For 190k cells on an A100, use `batch_size=1024`; it keeps the card busy and converges just as well for scVI.
4. **The data loader** in recent scvi-tools versions can use `datasplitter_kwargs={"num_workers": 4}` but for in-memory data it is rarely the bottleneck.

Try:

```python
scvi.model.SCVI.setup_anndata(adata, layer="counts", batch_key="batch", categorical_covariate_keys=["donor"])
model = scvi.model.SCVI(adata, n_latent=30, n_layers=2)
model.train(max_epochs=200, batch_size=1024, accelerator="gpu", devices=1, early_stopping=True)
```

With HVGs and a batch size of 1024 I'd expect seconds per epoch, not minutes. The second card is unused; scVI trains on one device, so you can run a second model (e.g. scANVI) on it at the same time."""),
    U("""went from 14 min to 9 seconds per epoch. it was the backed mode + all 36k genes. wow"""),
    U("""the latent space looks good but donor 7 still sits apart from everything. should I add donor as batch key instead of the sequencing batch?"""),
    A("""It depends on what you want to keep. If donor 7 is genuinely different (e.g. a different disease state or genotype), correcting on donor would remove the biology you might want to study. If it's technical (it was the dissociation outlier, or processed on a different day), then correcting is fine.

A middle route is what I suggested: sequencing `batch` as the `batch_key` and `donor` as a categorical covariate. Check donor 7's metadata first; and compare its marker expression against the other donors within the same cell type. If the difference is a stress signature (FOS, JUN, HSP genes), it's technical."""),
    U("""donor 7 = heat shock genes through the roof. technical. adding donor as covariate"""),
)

SESSIONS.add(
    "cloud-02", "2025-12-09 10:40",
    U("""Update on AWS: second round of realignments (the colon set again with a newer reference) after fixing the volumes. December bill came to €187. Hilde asked me what we spent on AWS in total so far, so she can report it to the credits program. What's a clean way to tag resources per project so next time I can just filter?"""),
    A("""Cost allocation tags are the way to do this:

1. Pick a small set of tag keys and use them everywhere: `project` (e.g. `organoid-atlas`), `owner` (your u-number), and `grant` if credits or costs must be attributed to a specific grant.
2. In AWS Batch, set the tags on the **compute environment** and enable `propagateTags` on the job definitions, so EC2 instances and EBS volumes inherit them. For S3, tag the bucket.
3. Activate the keys in Billing -> Cost allocation tags. Tags only show up in Cost Explorer from the moment they are activated, not retroactively, so do it now.
4. Then in Cost Explorer, group by `Tag: project`, and you can export a monthly CSV for Hilde.

For the report she's asking for, the past months without tags will have to be summed from the monthly invoices."""),
    U("""ok tags activated."""),
    A("""Once the tags show up (24 hours after activation), you can also set an AWS Budget on `project = organoid-atlas` with an email alert at 80% of a monthly limit, so a forgotten compute environment doesn't surprise you."""),
    U("""budget alert at €250/month set"""),
)

SESSIONS.add(
    "pi-01", "2025-12-15 09:05",
    U("""Some lab news. Hilde is going on sabbatical at Stanford from 5 January until the end of June. While she's gone Tomasz Wójcik (the senior postdoc) will be my day-to-day supervisor, she'll still do a monthly call. Tomasz is much more hands-on than Hilde, he wants weekly written updates. Can you draft a template for a short weekly update I can fill in in 10 min?"""),
    A("""Here's a template that fits in one screen and is quick to fill in on Friday afternoon:

**Weekly update - week NN (dates)**

**Done this week**
- 2-4 bullets, each one result or deliverable, not activities ("batch 1 Nextflow run reproduces Snakemake matrices" rather than "worked on Nextflow")

**Numbers / figures**
- one key figure or table, linked (e.g. UMAP of the integration, QC summary)

**Next week**
- 2-3 bullets, what you plan to have done by next Friday

**Blocked / need input**
- decisions you need from Tomasz (or Hilde), with a default you will take if you don't hear back ("I'll use 3,000 HVGs unless you prefer 5,000")

**Students**
- one line on Ines' progress

Tips: keep a running `updates.md` in the repo and paste the week's section into the email, so you get a searchable log for free. And the "default you will take" line saves a lot of back-and-forth with hands-on supervisors."""),
    U("""love the default line. thanks"""),
    U("""also what tool do you recommend for the updates, email or something else? tomasz likes email"""),
    A("""If he likes email, use email. The best channel for updates is the one the reader reads. Keep the running `updates.md` in the repository as your archive and paste from it; that way you have the history even if the email threads get lost."""),
)

SESSIONS.add(
    "holiday-01", "2025-12-19 14:50",
    U("""Last day before the break! My partner and I are flying to Madeira on Monday the 22nd, back on 2 January, doing some levada walks. I want to leave the integration running over the holidays. If I launch this on the cluster will it survive? max walltime on genius batch is 72h I think."""),
    A("""A single job can't run longer than the partition's maximum walltime (72 hours on Genius' batch partition), so a two-week job would be killed. Options:

- **Make the job checkpoint and resubmit itself.** scvi-tools can save the model (`model.save(...)`) every N epochs via a callback, and a small wrapper script submits a follow-up job with `sbatch --dependency=afterany:$SLURM_JOB_ID` that loads the last checkpoint.
- **Split the work into independent jobs.** If "the integration" is actually several models (different `n_latent`, with and without donor covariate), submit them as a job array; each fits within 72h.
- **Use Nextflow with `-resume`** from a `tmux` session on a login node: not recommended over two weeks, login nodes get rebooted.

Honestly, given that the scVI training now takes minutes on the workstation, a parameter sweep as a job array is the simplest. Submit it today, check the results on 5 January, and enjoy the levadas. The Caldeirão Verde and Pico do Arieiro to Pico Ruivo walks are worth it if the weather is clear."""),
    U("""job array it is. 12 configs submitted. byeee"""),
    U("""the array script in case you see something wrong:

```
#!/bin/bash
#SBATCH --job-name=scvi_sweep
#SBATCH --array=0-11
#SBATCH --partition=gpu_a100
#SBATCH --gpus-per-node=1
#SBATCH --mem=64G
#SBATCH --time=24:00:00
#SBATCH --account=lp_vermeulen
#SBATCH --output=logs/sweep_%A_%a.out

source $VSC_DATA/miniforge3/bin/activate atlas
python sweep.py --config configs/sweep_${SLURM_ARRAY_TASK_ID}.yaml
```"""),
    A("""It looks fine. Two small suggestions: add `#SBATCH --cpus-per-task=8` (the default is one core, and data loading with one core can slow the GPU), and `set -euo pipefail` after the shebang so a failed activation doesn't go on to run Python from the wrong environment. With `%A_%a` in the output name, each array task gets its own log, which is what you want."""),
    U("""added both. ok now I'm really off"""),
)

SESSIONS.add(
    "env-02", "2026-01-07 10:33",
    U("""Happy new year. Quick note: I replaced mamba with pixi for all our environments this week. The split into three mamba envs helped, but we kept getting different package versions on the cluster and on laptops, and pixi gives us one lock file for linux-64 and osx-arm64. Ines was fine with it in the end. Problem: pixi on the cluster fills my $VSC_HOME quota:

```
$ pixi install
  × failed to link 'r-base-4.4.2-hc737e89_1'
  ╰─▶ No space left on device (os error 28)
$ du -sh ~/.cache/rattler
2.8G    /user/leuven/123/vsc12345/.cache/rattler
```"""),
    A("""The package cache defaults to `~/.cache/rattler`, and `$VSC_HOME` is only a few GB. Move it to `$VSC_DATA` (backed up, larger) or scratch:

```
echo 'export PIXI_CACHE_DIR=$VSC_DATA/.cache/pixi' >> ~/.bashrc
echo 'export RATTLER_CACHE_DIR=$VSC_DATA/.cache/rattler' >> ~/.bashrc
source ~/.bashrc
rm -rf ~/.cache/rattler
pixi install
```

The project environment itself is created in `.pixi/` inside the repository, so make sure the repo is checked out under `$VSC_DATA` as well, not in home.

For Nextflow processes, pixi isn't a built-in package manager yet, so keep containers for the pipeline and use pixi for the interactive analysis and notebooks. Build the containers from the same lock file if you want them to match exactly."""),
    U("""repo is in $VSC_DATA already. cache moved, install works."""),
    U("""how do I add an R package from bioconductor with pixi"""),
    A("""Bioconductor packages are on bioconda, so add the channel to the project and then the package:

```
pixi project channel add bioconda
pixi add bioconductor-scdblfinder
```

Make sure `conda-forge` is listed before `bioconda` in `pixi.toml` (`channels = ["conda-forge", "bioconda"]`); bioconda is built against conda-forge. The lock file is updated automatically, so commit `pixi.lock` along with `pixi.toml`."""),
    U("""ok do it for scdblfinder and zellkonverter"""),
    A("""```
pixi add bioconductor-scdblfinder bioconductor-zellkonverter
git add pixi.toml pixi.lock
git commit -m "env: add scDblFinder and zellkonverter (bioconda)"
```

zellkonverter brings its own Python through basilisk by default; set `options(zellkonverter.use_basilisk = FALSE)` in R to make it use the pixi environment's Python instead of downloading another one."""),
)

SESSIONS.add(
    "dutch-01", "2026-01-14 18:20",
    U("""hey, off-topic one. I started the level 2 Dutch course at CVO Leuven this week, Tuesday and Thursday evenings 18:30-21:30, until June. Can you give me a few simple sentences to practise talking about my work? something like "I analyse data from organoids" """),
    A("""Goed bezig! Here are some sentences at about A2 level, with the word order that Dutch learners usually struggle with (verb second, infinitives at the end):

1. **Ik analyseer gegevens van organoïden.** - I analyse data from organoids.
2. **Ik werk als bio-informaticus in een lab aan de KU Leuven.** - I work as a bioinformatician in a lab at KU Leuven.
3. **Organoïden zijn kleine versies van een orgaan die in het lab groeien.** - Organoids are small versions of an organ that grow in the lab. (note: in the subordinate clause "die in het lab groeien", the verb goes to the end)
4. **Elke dag schrijf ik code op de computer.** - Every day I write code on the computer. (starting with "Elke dag" pushes the subject after the verb)
5. **Ik moet volgende week een presentatie geven.** - I have to give a presentation next week. (modal verb second, infinitive "geven" at the end)
6. **Mijn begeleider wil elke vrijdag een verslag.** - My supervisor wants a report every Friday.

Try saying them out loud with the stress on the first syllable of "ORganoïden" and "ANalyseer"."""),
    U("""haha "mijn begeleider wil elke vrijdag een verslag" is very true now"""),
    U("""how do you say "the pipeline is running on the cluster" lol"""),
    A("""**De pipeline draait op de cluster.** Dutch speakers use the English words "pipeline" and "cluster" (de pipeline, de cluster); "draaien" (to turn, to run) is the everyday verb for software that is running. In Flanders you will also hear "de pipeline loopt"."""),
)

SESSIONS.add(
    "qc-02", "2026-01-12 13:45",
    U("""tomasz went through the batch 1 QC with me. he thinks min_genes 200 lets through a lot of ambient-RNA droplets, the low-gene clusters are mostly soup. we agreed to raise it to min_genes = 500, and run CellBender before scanpy. can you check what that does to my cell numbers:

```
sample  kept_at_200  kept_at_500  lost
ORG01   7305         6988         317
ORG02   8011         7702         309
ORG03   4198         3410         788
ORG04   6902         6711         191
...
total   161,430      152,877      8,553
```"""),
    A("""Raising the cutoff from 200 to 500 genes removes 8,553 cells in total, about 5.3% of the previously kept cells. That's a modest loss and matches what you'd expect if most of the removed barcodes were ambient droplets.

The distribution is informative:

- ORG01, ORG02 and ORG04 each lose around 3-5%, consistent with a thin tail of low-quality droplets.
- **ORG03 loses 788 cells (18.8%)**, far more than the others. That fits the long 45-minute dissociation: many of its "cells" were damaged, low-complexity droplets. With the stricter cutoff, ORG03 is cleaner but also the smallest sample, so keep an eye on whether it still contributes to all clusters after integration.

Running CellBender before the gene cutoff is a good combination: CellBender removes ambient counts from real cells and calls empty droplets using the whole barcode-rank curve, and the min_genes = 500 filter then acts as a backstop. Make sure the QC notebook records both thresholds in the `uns` of the final AnnData so the paper's methods section can be generated from it."""),
    U("""done, thresholds saved in adata.uns["qc"]"""),
    U("""cellbender on all 40 libraries will take a while. GPU or CPU?"""),
    A("""GPU, by a wide margin: CellBender's `remove-background` on CPU takes many hours per library, on a GPU typically 15-40 minutes. On the workstation you have two A100s, so run two libraries at a time (one per card), or submit them to the cluster's GPU partition as an array with `--cuda`. Set `--expected-cells` from the STARsolo/simpleaf cell calls and `--total-droplets-included` to about 3x that number."""),
    U("""submitting as an array on gpu_a100, 40 tasks"""),
)

SESSIONS.add(
    "batch-02", "2026-01-19 15:10",
    U("""second run is back from the genomics core!! another 16 libraries, these are the 8 new donors (D13-D20), again ctrl + TNF. same NovaSeq X kit. running them through the nextflow pipeline now. the only difference: the core now delivers with the newer 10x GEM-X chemistry for these, does starsolo need different settings?"""),
    A("""Yes, a couple of things change with GEM-X (3' v4):

- **Barcode whitelist:** v4 uses a different whitelist file than v3 (`3M-3pgex-may-2023.txt` in Cell Ranger 8+). Using the v3 list would give very low valid-barcode rates.
- **UMI length:** still 12 bp, and the cell barcode 16 bp, so `--soloCBlen 16 --soloUMIlen 12` stay the same.
- **Cell calling:** GEM-X recovers more cells per channel; if you use `--soloCellFilter EmptyDrops_CR`, adjust the expected cells parameter accordingly.

In the pipeline, the cleanest approach is a `chemistry` column in the samplesheet and a map from chemistry to whitelist in the config, so both batches run in one invocation:

```groovy
def whitelist = [ 'v3': params.whitelist_v3, 'v4': params.whitelist_v4 ]
ch_samples.map { meta, reads -> [ meta, reads, file(whitelist[meta.chemistry]) ] }
```

Because chemistry and sequencing batch are now confounded (all of batch 2 is v4), make sure the integration uses `batch` as the batch key; you cannot separate chemistry effects from batch effects anyway."""),
    U("""added chemistry column, B2 running"""),
    U("""valid barcodes 96.8% on the first B2 sample with the v4 list. 👍"""),
    U("""the core's delivery email also mentions "ORG31 low cDNA yield, proceed with caution". what does that mean for analysis"""),
    A("""Low cDNA yield after the GEM step usually means fewer cells were captured or the cells were in poor shape (lysis, low RNA content). Expect fewer cells and lower UMIs per cell for ORG31. Analyse it like the others, then compare its QC metrics; if it looks like ORG03 did (high mito, low complexity), flag it with `qc_flag = "low_cdna"`. Don't drop it before looking: with only 16 libraries in batch 2, every donor-condition pair matters for the paired analysis."""),
    U("""ORG31 has 2,100 cells vs ~9k for the others, median genes ok. flagged, keeping it."""),
)

SESSIONS.add(
    "move-01", "2026-01-26 20:15",
    U("""personal stuff: we're moving to Mechelen! my partner got a job in Antwerp and Mechelen is halfway, the train to Leuven is 22 minutes. moving day is Saturday 14 February. any tips for a checklist of admin in Belgium when you move between cities? I'm not Belgian (Dutch), so I have an EU residence card."""),
    A("""Congratulations on the move! The Belgian admin for moving between municipalities mostly runs through the new commune:

**Before the move**
- Give notice on the Leuven rental (standard leases need three months' notice, so check your contract's dates) and book the move-out inspection (plaatsbeschrijving).
- Book the move-in inspection for the Mechelen place.
- Take meter readings for gas, electricity and water on moving day, at both addresses; use the energy provider's "move" form.

**Within 8 working days after the move**
- Register at the Mechelen city hall (or online via the city's e-loket): the wijkagent (local police officer) will visit to confirm you live there. Your residence card then gets updated with the new address.
- Your address on the card must be updated before other institutions pick it up; many (mutualiteit/health insurer, tax) use the national register automatically afterwards.

**Other**
- Bank, employer (KU Leuven HR for your address and the commuting allowance - the train subscription is reimbursed), car insurance if you have a car, post forwarding with bpost.
- Internet: schedule the installation early; appointments are often two or three weeks out.

Since you'll commute by train, ask HR about the train subscription now; KU Leuven covers it for commuting staff."""),
    U("""oh the train subscription thing is great, didn't know"""),
    U("""also can we do the move without me losing a week? i have the batch 2 integration to finish"""),
    A("""Plan the move around a weekend, and protect the week around it:

- Take the Friday before and the Monday after the move off; the move itself on Saturday 14 February.
- Before that, submit long-running jobs (integration, CellBender) on Thursday so they compute while you pack.
- Keep the week after for low-focus tasks (QC review, writing methods, admin) rather than deep debugging.

Most lost time in moves comes from the internet not working at the new place: if the installation is weeks away, a mobile hotspot and the university VPN will tide you over."""),
)

SESSIONS.add(
    "quant-01", "2026-02-02 11:05",
    U("""I benchmarked simpleaf (alevin-fry) against STARsolo on 4 samples because STARsolo is ~70 min per library and we now have 40 libraries plus the public ones. results:

```
sample  tool       wall_min  peak_mem_GB  cells  median_umi  corr_vs_starsolo
ORG01   starsolo   71        38.9         6988   7412        1.000
ORG01   simpleaf   14        17.2         7011   7388        0.994
ORG13   starsolo   66        37.1         9804   6120        1.000
ORG13   simpleaf   12        16.8         9851   6097        0.995
ORG20   starsolo   80        39.4         11210  5560        1.000
ORG20   simpleaf   15        17.9         11263  5541        0.993
ORG07   starsolo   69        38.2         7790   7034        1.000
ORG07   simpleaf   13        17.0         7802   7011        0.994
```

what do you think, is 0.993-0.995 good enough?"""),
    A("""Let me go through the table. simpleaf is about 5x faster (12-15 minutes vs 66-80) and uses less than half the memory (about 17 GB vs 37-39 GB), while cell counts differ by less than 1% and median UMIs by well under 1%. A per-cell correlation of 0.993-0.995 against STARsolo is in line with published comparisons; the differences come mostly from how multi-mapping reads and intronic reads are assigned (simpleaf's default `--resolution cr-like` vs STARsolo's `Gene` feature).

Whether it's "good enough" depends on the question:

- **For clustering, annotation and differential abundance**: yes, clearly. Those are robust to differences at this level.
- **For matching the genomics core's counts exactly** (the reason you chose STARsolo): no, the numbers won't be identical. If that requirement still holds, simpleaf would break it.
- **For RNA velocity**: simpleaf's USA mode (spliced/unspliced/ambiguous) is actually convenient.

A pragmatic option is to switch the default and keep STARsolo as a pipeline option (`--aligner starsolo`), so the core can still run it their way. nf-core/scrnaseq does exactly that."""),
    U("""asked Tomasz and the core, they're fine with it as long as starsolo stays an option. so: simpleaf is now our default quantifier, starsolo behind --aligner starsolo."""),
    A("""Sounds good. Don't forget to record the simpleaf and index versions in the pipeline's `versions.yml`, and to rerun the batch 1 libraries with simpleaf so the whole dataset comes from one quantifier."""),
    U("""how much faster is the full pipeline now end to end for 40 libs?"""),
    A("""Rough estimate from your numbers: quantification drops from about 70 to about 14 minutes per library, so for 40 libraries from ~47 to ~9 CPU-node hours of quantification (with 16 threads each, that's ~750 to ~150 CPU hours). Since the jobs run in parallel on the cluster, the wall time of a full run depends on queueing more than compute, but it should go from about 3 hours to under 1 hour if enough nodes are free. CellBender and the integration now dominate."""),
)

SESSIONS.add(
    "wrist-01", "2026-02-09 09:12",
    U("""my right wrist has been hurting for about a week, worse after long days of typing and mouse. GP said it's an RSI type thing (tendinitis), prescribed rest + physio twice a week starting tomorrow, and said to reduce mouse use. Can you teach me the vscode keyboard shortcuts that would replace the most mouse clicks? I mostly do notebooks + python files + terminal"""),
    A("""Sorry to hear about the wrist. Here are the VS Code shortcuts that replace the most mouse movement for a notebook + editor + terminal workflow (Linux/Windows keys; on macOS replace Ctrl with Cmd in most of them):

**Moving around**
- `Ctrl+P` - open any file by name
- `Ctrl+Shift+P` - command palette: anything in a menu is here
- `Ctrl+Shift+O` - jump to a function/class in the current file
- `Ctrl+G` - go to line
- `Ctrl+1` / `Ctrl+2` - focus the first/second editor group
- ``Ctrl+` `` - toggle the terminal, and again to go back to the editor
- `Ctrl+Tab` - switch between open editors

**Notebooks**
- `Esc` then `J`/`K` - move between cells (command mode), `Enter` to edit
- `Shift+Enter` - run cell and go to the next
- `A` / `B` - insert cell above/below; `D D` - delete cell; `M` / `Y` - markdown/code
- `Ctrl+Shift+-` - split cell at the cursor

**Editing**
- `Alt+Up/Down` - move a line; `Shift+Alt+Down` - duplicate it
- `Ctrl+D` - select next occurrence (multi-cursor rename without the mouse)
- `Ctrl+/` - toggle comment
- `F2` - rename symbol

Also worth setting up: a vertical mouse or a trackball for what remains, and the OS setting that puts mouse keys on the numeric keypad. And take the breaks: a 5-minute pause every 45 minutes helps tendinitis more than any tool."""),
    U("""thx. physio starts tomorrow, ordered a vertical mouse"""),
    U("""is there a vim mode in vscode, tomasz swears by vim"""),
    A("""Yes, the "Vim" extension (vscodevim) gives you modal editing inside VS Code. It's a big change to learn while your wrist hurts, though: the first weeks are slower. If you want to try, start with only movement keys (h j k l, w b, gg G) and keep using VS Code shortcuts for everything else. `:set relativenumber` helps with jumping lines."""),
    U("""maybe later. breaks first"""),
)

SESSIONS.add(
    "paper-01", "2026-02-16 10:30",
    U("""Paper planning. Tomasz and Hilde agreed on the target: the organoid TNF atlas goes to Genome Biology, internal deadline for a full draft is 15 March. I own the methods and figures 1-3. Here's my figure list, can you help me turn it into a realistic plan for the 4 weeks?

Fig 1: overview, UMAP of 40 organoid libraries + public data, cell type proportions
Fig 2: TNF response per cell type, DE + pathway
Fig 3: donor variability, which donors respond more and why"""),
    A("""Four weeks for three figures and the methods is tight but doable if the data processing is frozen first. A plan:

**Week 1 (16-22 Feb): freeze the data**
- Rerun all 40 libraries with simpleaf so everything comes from one quantifier, and integrate with the public sets.
- Freeze the integrated object: `atlas_v1.h5ad`, with its checksum and the pipeline version in the file. No reprocessing after this without a very good reason.
- Draft the methods for processing while it's fresh (QC thresholds, CellBender, simpleaf, scVI settings).

**Week 2 (23 Feb - 1 Mar): Figure 1**
- Annotation with markers, checked with Tomasz; a UMAP coloured by cell type, batch and condition; proportions per donor/condition.
- Supplementary: QC per sample, integration metrics (scIB).

**Week 3 (2-8 Mar): Figure 2**
- Pseudobulk DE per cell type (sum counts per donor x condition x cell type, then DESeq2 or edgeR with donor as a blocking factor). Pseudobulk matters here: cell-level tests treat cells as independent replicates and inflate significance.
- Pathway enrichment with the results (fgsea on the ranked statistic), NF-kB and TNF targets as a sanity check.

**Week 4 (9-15 Mar): Figure 3 and buffer**
- Per-donor response scores, correlate with donor metadata.
- The last three days are buffer; something will take longer than planned.

Practical tip: make every figure panel a script that reads the frozen object and writes a PDF, so a change to one panel doesn't mean re-clicking through a notebook."""),
    U("""that's great. freezing the data this week then"""),
    U("""for the pseudobulk, how many cells minimum per donor x celltype x condition?"""),
    A("""A common threshold is 10-20 cells per pseudobulk sample; below that, the summed counts are noisy and dominated by a few cells. Set the minimum (e.g. 10), drop the combinations below it, and report how many donors remain per cell type. For rare types (tuft cells, enteroendocrine cells) you may end up with too few donors for a paired test; in that case say so in the figure legend rather than lower the threshold."""),
    U("""20 it is, tuft cells will drop out"""),
)

SESSIONS.add(
    "move-02", "2026-02-18 08:40",
    U("""moved on saturday 🎉 writing from the train, Mechelen -> Leuven really is 22 min. the new flat has no internet until the 3rd of march (Telenet appointment). Meanwhile: how do I make git over ssh to github work through my phone hotspot? it hangs at "Connecting to github.com port 22" """),
    A("""Welcome to Mechelen! Some mobile networks block or throttle outgoing port 22. GitHub supports SSH over port 443 on a different hostname, which gets through almost everywhere. Add this to `~/.ssh/config`:

```
Host github.com
    Hostname ssh.github.com
    Port 443
    User git
```

Then test with `ssh -T git@github.com`; you should see "Hi <username>! You've successfully authenticated". Your remotes don't need to change.

For the VSC cluster, the same trick doesn't apply, but the VSC login nodes accept SSH on port 22 only from Belgian university networks or via the VPN, so connect to the KU Leuven VPN first."""),
    U("""port 443 works. VPN for the cluster, right. thanks"""),
    U("""and the mobile data is limited to 40GB, how do I stop vscode remote from downloading the server every time"""),
    A("""VS Code Remote-SSH installs its server on the remote side once per VS Code version; it only re-downloads when VS Code updates. To avoid updates on the hotspot: set `"update.mode": "manual"` in settings until your internet is installed. The other big consumer is extensions installed on the remote; they're also cached remotely after the first time.

Also set `"remote.SSH.localServerDownload": "always"` is *not* what you want here: that makes the laptop download the server and push it over your connection."""),
    U("""update.mode manual, done"""),
)

SESSIONS.add(
    "geo-02", "2026-02-23 14:25",
    U("""reviewers will ask about adult tissue vs organoids, so I pulled two more public studies to compare against, both primary intestinal epithelium from biopsies: the Gut Cell Atlas epithelial subset and GSE185224. Integration with the organoid data looks odd, the biopsy cells form their own island on the UMAP. scIB output:

```
metric                 scvi_batch  scvi_batch_donor
isolated_label_f1      0.61        0.63
kBET                   0.18        0.22
graph_connectivity     0.81        0.84
ilisi                  0.09        0.11
clisi                  0.97        0.97
```"""),
    A("""The island isn't necessarily an integration failure. Tissue and organoids differ biologically (no immune or stromal niche, different maturation states), so some separation is expected and even desirable: over-correcting would erase the very difference a reviewer wants to see.

The metrics support that reading: cLISI at 0.97 means cell types stay well separated, and the low iLISI (0.09-0.11) and kBET (0.18-0.22) say batches mix poorly. Adding donor as a covariate helps a little on every metric.

Ways to check whether it's biology or a technical batch effect:

1. **Compare within matched cell types.** Take enterocytes from biopsy and organoids and look at the DE genes. If they're mostly stress/dissociation genes (FOS, JUN, HSPA1A), it's technical; if they're maturation and niche-response genes (e.g. APOA4, LCT, MHC class II), it's biology.
2. **Label transfer instead of joint embedding.** scANVI or a reference mapping with scArches: map the organoid cells onto the tissue reference and report the mapping confidence per cell type. That answers "which organoid cell types resemble tissue" directly.
3. **Don't force mixing** with a stronger batch correction just to make the UMAP look nice.

I'd present it as a reference mapping in a supplementary figure."""),
    U("""makes sense. I'll do the scArches mapping for the supplement"""),
    U("""for the scArches mapping, do I train the reference on the tissue data only?"""),
    A("""Yes: train scVI (or scANVI with the tissue cell-type labels) on the tissue data only, save the model, then load it with `scvi.model.SCANVI.load_query_data(organoid_adata, reference_model)` and train the query for a few hundred epochs with the reference weights frozen. The organoid cells then get embedded and labelled in the tissue's coordinate system, and `model.predict(soft=True)` gives per-cell label probabilities you can report as mapping confidence."""),
    U("""ok. training the reference now on the workstation"""),
)

SESSIONS.add(
    "gpu-02", "2026-03-02 09:55",
    U("""Good news: Hilde's grant money came through and we added two L40S cards (48 GB each) to the workstation. new nvidia-smi -L:

```
GPU 0: NVIDIA A100-PCIE-40GB (UUID: GPU-3b1f...)
GPU 1: NVIDIA A100-PCIE-40GB (UUID: GPU-af02...)
GPU 2: NVIDIA L40S (UUID: GPU-77c9...)
GPU 3: NVIDIA L40S (UUID: GPU-0d41...)
```

Ines and I keep stepping on each other's GPUs. what's the simplest way to share them between 2-3 people without setting up slurm on the workstation?"""),
    A("""For two or three people, a lightweight convention plus one environment variable usually works better than a scheduler:

1. **Assign devices with `CUDA_VISIBLE_DEVICES`.** Each person sets it in their shell or notebook kernel, e.g. Ines gets `CUDA_VISIBLE_DEVICES=2`, you get `0,1`. Processes then only see their assigned cards, and "cuda:0" inside each process maps to the right physical GPU.
2. **Pin the ordering.** Set `CUDA_DEVICE_ORDER=PCI_BUS_ID` system-wide (in `/etc/environment`) so that device numbers match `nvidia-smi`; otherwise CUDA orders by speed and the A100s and L40S may swap indices.
3. **A shared view.** `nvitop` or `gpustat -i` in a corner of the screen shows who uses what.
4. **If conflicts continue**, a tiny queue like `task-spooler` (`tsp`) with one queue per GPU lets people submit jobs that wait for the card to be free, with no daemon configuration.

Note the L40S has no NVLink and lower FP64 performance, but for scVI and other deep learning in FP32/mixed precision it's about as fast as the A100 and has more memory."""),
    U("""CUDA_VISIBLE_DEVICES per person it is. Ines gets GPU 2 and 3"""),
    U("""and CUDA_DEVICE_ORDER, put it in /etc/environment on the workstation? I have sudo"""),
    A("""Yes, `/etc/environment` applies to all login sessions, including SSH and the JupyterHub spawner if you use one. Add `CUDA_DEVICE_ORDER=PCI_BUS_ID` there, log out and back in, and check with `python -c "import torch; print([torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())])"` that device 0 and 1 are the A100s."""),
    U("""checked, 0/1 A100, 2/3 L40S"""),
)

SESSIONS.add(
    "niece-01", "2026-03-05 21:30",
    U("""not a work question at all - my sister in Utrecht had a baby this morning, a girl called Noor!! I'm an aunt for the first time. I'm going up this weekend. any ideas for a gift that isn't another stuffed animal?"""),
    A("""Congratulations, what lovely news, and welcome to Noor!

Some ideas that new parents tend to appreciate more than another stuffed animal:

- **Food for the first weeks:** a meal delivery voucher, or cook a few freezable dishes and bring them along. Often the most appreciated gift of all.
- **A cleaning or help voucher:** a few hours of a cleaner, or your own time ("one evening of babysitting when you're ready").
- **A baby book or a photo frame for the first-year photos**, or a print with her name and birth details.
- **Something for later:** a children's book you loved, with a note written in it from her aunt; a savings account deposit.
- **For your sister:** something just for her, like good chocolate, a massage voucher or a nice tea set. New mothers often get forgotten in the gift-giving.

Enjoy your first visit as tante!"""),
    U("""meal delivery voucher + a book for later it is. which children's book in dutch?"""),
    A("""Classics that Dutch parents tend to love: "Nijntje" (Miffy) by Dick Bruna for the first years, "Jip en Janneke" by Annie M.G. Schmidt for reading aloud a bit later, and "Kikker" by Max Velthuijs. A Nijntje board book with a note from you inside would be a sweet first book."""),
    U("""nijntje! perfect"""),
)

SESSIONS.add(
    "paper-02", "2026-03-11 16:45",
    U("""Change of plans on the paper. Hilde (from Stanford, on the monthly call) wants us to add the Visium HD spatial data of two donors before submitting, so the internal deadline moved from 15 March to 30 April. Slightly relieved tbh, figure 3 was not going to make it. How do I get started with Visium HD in python? The core is running spaceranger 4 on the two slides this week."""),
    A("""Good news for figure 3, then. For Visium HD in Python, the main pieces are:

1. **Reading the data:** Visium HD outputs binned data at 2, 8 and 16 µm. `spatialdata-io` reads the Space Ranger output into a `SpatialData` object holding the images, the bins as shapes and an AnnData table per bin size:

```python
from spatialdata_io import visium_hd
sdata = visium_hd("spaceranger_out/ORG_SLIDE1/outs", dataset_id="slide1")
```

2. **Choosing a bin size:** start with 8 µm bins; 2 µm is too sparse for most analyses and 16 µm mixes neighbouring cells. Alternatively, segment nuclei on the H&E image (e.g. with StarDist) and aggregate 2 µm bins per cell, which gives you something close to single cells.
3. **Deconvolution / label transfer from your atlas:** use your frozen single-cell atlas as a reference. cell2location or RCTD (via spacexr in R) estimate cell-type proportions per bin; with segmentation you can use label transfer directly.
4. **Spatial statistics:** squidpy for neighbourhood enrichment and co-occurrence, e.g. whether TNF-responsive cells cluster together.

Since the atlas object is frozen, the spatial analysis can proceed independently; just make sure the same gene identifiers (Ensembl IDs) are used in both."""),
    U("""ok, will read up on spatialdata. deadline 30 April noted in the plan"""),
    U("""the 2 slides are from donors 4 and 15 btw, one per batch. is 2 donors enough for a figure panel?"""),
    A("""Two donors are enough for a descriptive panel ("in both donors, TNF-responsive cells localise to..."), not for statistics across donors. Show both slides side by side and phrase the result as consistent across two donors; put any donor-level quantification in the supplement. Reviewers may ask for more; having one donor per batch is a reasonable design to argue the result isn't a batch artefact."""),
    U("""ok. donor 4 and 15 it is"""),
)

SESSIONS.add(
    "run-03", "2026-03-16 07:30",
    U("""wrist is better, running wasn't affected anyway. signed up for the Antwerp 10 Miles on Sunday 26 April (16.1 km). longest run so far is 13 km. too ambitious with 6 weeks?"""),
    A("""Not too ambitious at all. Going from 13 km to 16.1 km in six weeks is a comfortable progression: add 1-1.5 km to your long run every week, with an easier week in between, and you'll have done 16-17 km two weeks before the race.

A rough outline:

- Weeks 1-2: long run 14 and 15 km, one session of 4 x 1.5 km at 10-mile pace (about 5:10/km based on your 10 km time), one easy run.
- Week 3: easier week, long run 12 km.
- Week 4: long run 16-17 km, session 3 x 3 km at race pace.
- Week 5: long run 14 km, short session.
- Race week: two short easy runs with strides.

Antwerp's course goes through the Kennedy tunnel, which has a steep climb out at the end of it; don't panic about pace there, it comes back on the flat."""),
    U("""what should I eat before a 16k race? i usually run the 10ks fasted"""),
    A("""For 16 km at your pace (about 80-85 minutes), running fasted is possible but most people run better with a light breakfast 2-3 hours before: oatmeal, a banana, toast with honey, something you've already tested before long training runs. Practise it on your long runs in the coming weeks. A gel isn't necessary for under 90 minutes, but if you want one, take it around km 10 and test it in training first."""),
    U("""oatmeal again then"""),
)

SESSIONS.add(
    "sec-01", "2026-03-18 11:15",
    U("""for the paper we need to deposit the raw data. patient-derived organoids, so the hospital's data protection officer says raw reads go to EGA (controlled access), only processed counts can go to GEO. the EGA upload needs encrypted files, this is what I get from the crypt4gh step:

```
$ crypt4gh encrypt --recipient_pk ega_public.key < ORG01_R2.fastq.gz > ORG01_R2.fastq.gz.c4gh
Traceback (most recent call last):
  File "/data/leuven/vsc123/.pixi/envs/default/bin/crypt4gh", line 8, in <module>
    sys.exit(main())
  File ".../crypt4gh/__main__.py", line 25, in main
    cli.run(sys.argv)
  File ".../crypt4gh/cli.py", line 173, in encrypt
    recipient_keys = [(0, seckey, get_public_key(pk)) for pk in args['--recipient_pk']]
  File ".../crypt4gh/keys/__init__.py", line 52, in get_public_key
    raise ValueError('Unsupported key format')
ValueError: Unsupported key format
```"""),
    A("""`crypt4gh` expects a public key in the Crypt4GH format: a file that begins with `-----BEGIN CRYPT4GH PUBLIC KEY-----` and contains a base64-encoded 32-byte key. "Unsupported key format" usually means one of:

- The file is the EGA key saved from a web page with extra whitespace, Windows line endings or HTML around it. Check with `cat -A ega_public.key | head`.
- It's an SSH or PGP public key (EGA used PGP before it moved to Crypt4GH). A PGP key starts with `-----BEGIN PGP PUBLIC KEY BLOCK-----` and won't work.

Download the current key from the EGA submission documentation again with `curl` rather than copy-paste, and check its first line.

Two things for the submission itself:

- EGA's own tool for this (the EGA Cryptor or the `ega-qc` uploader) computes the checksums of both the unencrypted and encrypted files, which the submission portal asks for. If you use `crypt4gh` directly, compute the `md5sum` of the original file before encrypting.
- Never keep the unencrypted FASTQs anywhere but the university storage, as the DPO said; do the encryption on the cluster, not on a laptop."""),
    U("""it was a PGP key from an old wiki page. new key from EGA's site works."""),
    U("""how many files will this be? 40 libraries, 2 fastqs each, 4 lanes"""),
    A("""40 libraries x 4 lanes x 2 reads = 320 FASTQ files, plus the index reads if the core delivers I1/I2 too (EGA usually wants only R1 and R2 for 10x, but check their 10x submission guide). Each gets a `.c4gh` file and two checksums (of the unencrypted and the encrypted file). Script it and submit as a job array on the cluster: encrypting ~300 files by hand is where mistakes happen."""),
    U("""ok do it"""),
    A("""```
#!/bin/bash
#SBATCH --job-name=c4gh
#SBATCH --array=0-319%20
#SBATCH --time=01:00:00
#SBATCH --mem=4G
#SBATCH --account=lp_vermeulen
set -euo pipefail

mapfile -t FILES < fastq_list.txt
f=${FILES[$SLURM_ARRAY_TASK_ID]}
out=$VSC_SCRATCH/ega/$(basename "$f").c4gh

md5sum "$f" | cut -d' ' -f1 > "$out.unencrypted.md5"
crypt4gh encrypt --recipient_pk ega_public.key < "$f" > "$out"
md5sum "$out" | cut -d' ' -f1 > "$out.md5"
```

Create `fastq_list.txt` with `ls /staging/leuven/stg_00123/organoid_raw/*_R[12]_*.fastq.gz > fastq_list.txt` and check it has 320 lines. The `%20` limits it to 20 tasks at a time so you don't saturate the staging storage's I/O."""),
)

SESSIONS.add(
    "slurm-01", "2026-03-24 13:05",
    U("""cell2location keeps dying on the cluster gpu nodes. sacct:

```
JobID           JobName  Partition    ReqMem     MaxRSS    Elapsed      State ExitCode
------------ ---------- ---------- ---------- ---------- ---------- ---------- --------
63340111     c2l_slide1    gpu_a100        32G               00:41:07 OUT_OF_ME+    0:125
63340111.ba+      batch                         31.8G       00:41:07 OUT_OF_ME+    0:125
63340112     c2l_slide2    gpu_a100        32G               00:38:52 OUT_OF_ME+    0:125
63340112.ba+      batch                         31.9G       00:41:07 OUT_OF_ME+    0:125
```

GPU memory is fine, it's host RAM"""),
    A("""Both jobs hit their 32G host memory limit (MaxRSS 31.8G and 31.9G) after about 40 minutes, so the GPU side is fine and the job needs more RAM. cell2location keeps the full bins x genes matrix in host memory as dense arrays in several places (the input, the posterior samples, the exported results).

Three changes:

1. **Request more memory:** `#SBATCH --mem=96G`. The A100 nodes on Genius have plenty of RAM; 96G is still well under a node's share per GPU.
2. **Subset genes before training:** cell2location recommends filtering genes with `cell2location.utils.filtering.filter_genes(...)`; with 8 µm bins over a whole slide you have hundreds of thousands of bins, and going from ~18,000 genes to ~8,000 halves the memory.
3. **Export posterior with fewer samples:** `mod.export_posterior(adata_vis, sample_kwargs={"num_samples": 1000, "batch_size": 2000})` samples in batches instead of all bins at once. That step is usually where the peak is.

If it still runs out with 96G, split each slide into tiles by spatial coordinates and run them separately; cell2location models each bin independently given the reference, so tiling doesn't change the result."""),
    U("""--mem=96G + batched export fixed it. slide 1 done in 52 min"""),
    U("""slide 2 finished too, 49 min. thanks!"""),
    A("""Good. Note the two runtimes (52 and 49 minutes) in the methods: reviewers sometimes ask about the compute needed for deconvolution at 8 µm."""),
    U("""will do"""),
)

SESSIONS.add(
    "wrist-02", "2026-03-30 12:10",
    U("""Update: physio finished on Friday, wrist is fine now (almost 7 weeks of physio, twice a week). keeping the vertical mouse. Question about pre-commit: I want ruff + nbstripout on the nextflow repo's bin/ scripts and notebooks, Ines keeps committing notebooks with outputs (including a 40MB one). how?"""),
    A("""Glad the wrist is better! For the repo, a `.pre-commit-config.yaml` at the root:

```yaml
repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.11.2
    hooks:
      - id: ruff
        args: [--fix]
        files: ^bin/.*\\.py$
      - id: ruff-format
        files: ^bin/.*\\.py$
  - repo: https://github.com/kynan/nbstripout
    rev: 0.8.1
    hooks:
      - id: nbstripout
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v5.0.0
    hooks:
      - id: check-added-large-files
        args: [--maxkb=2000]
```

Then everyone runs `pre-commit install` once. The `check-added-large-files` hook stops the 40 MB notebook problem even when it isn't a notebook.

The 40 MB notebook already in the history stays in the repository's size even after you strip it. If the repo is still private and small in team size, you can remove it with `git filter-repo --strip-blobs-bigger-than 10M`, but that rewrites history: everyone has to re-clone. Add the hook first, then decide."""),
    U("""hooks installed. not rewriting history, not worth the hassle"""),
    U("""and ruff config, which rules? bin/ scripts are a mix of quality"""),
    A("""Start small so the first run doesn't produce 500 errors:

```toml
# pyproject.toml
[tool.ruff]
line-length = 110

[tool.ruff.lint]
select = ["E", "F", "I", "B"]   # pycodestyle errors, pyflakes, import order, bugbear
ignore = ["E501"]               # long lines, for now
```

`F` catches undefined names and unused imports (real bugs), `B` catches the classic Python traps (mutable default arguments), `I` sorts imports automatically. Add `UP` (pyupgrade) and `SIM` later once the codebase is clean."""),
    U("""147 fixes applied automatically, 12 left by hand. Ines is thrilled (not)"""),
)

SESSIONS.add(
    "dutch-02", "2026-03-03 19:05",
    U("""btw since the move I switched my Dutch class from CVO Leuven to CVO Mechelen, same level 2 but now Monday and Wednesday evenings (19:00-21:30). the Tue/Thu evenings in Leuven meant getting home at 22:30. The teacher there gave us homework: write 5 sentences about your weekend in the past tense (voltooid deelwoord). Can you check mine?

1. Ik heb in het weekend naar Utrecht gegaan.
2. Wij hebben een nieuwe bank gekocht.
3. Zaterdag ik heb 14 kilometer gelopen.
4. Mijn vriend heeft gekookt een lasagne.
5. Zondag zijn we thuis gebleven."""),
    A("""Nice work, three of the five are correct or almost. Corrections:

1. **Ik ben in het weekend naar Utrecht gegaan.** Verbs of movement towards a destination (gaan, komen, vertrekken) take *zijn*, not *hebben*, in the perfect tense.
2. **Wij hebben een nieuwe bank gekocht.** Correct.
3. **Zaterdag heb ik 14 kilometer gelopen.** When the sentence starts with something other than the subject ("Zaterdag"), the verb comes second and the subject follows it (inversion). *Hebben* with "lopen" is right here because you mention the distance, not a destination.
4. **Mijn vriend heeft een lasagne gekookt.** The past participle goes to the end of the sentence.
5. **Zondag zijn we thuis gebleven.** Correct: *blijven* takes *zijn*.

The two rules to remember: verb in second position, participle at the end."""),
    U("""ugh the zijn/hebben thing. ok thanks"""),
    A("""A rough rule that covers most cases: *zijn* for a change of place or state (gaan, komen, worden, sterven, beginnen) and for *blijven*, *zijn*; *hebben* for everything else. Movement verbs like lopen, fietsen and zwemmen take *zijn* with a destination ("ik ben naar huis gelopen") and *hebben* without one ("ik heb een uur gelopen")."""),
    U("""that helps, writing that on a post-it"""),
)

SESSIONS.add(
    "spatial-01", "2026-04-02 14:40",
    U("""spatial neighbourhood enrichment on slide 1 with squidpy, using the cell2location labels (argmax per 8um bin). does this look sane?

```
>>> sq.gr.spatial_neighbors(adata, coord_type="grid", n_neighs=8)
>>> sq.gr.nhood_enrichment(adata, cluster_key="c2l_label", seed=0)
100%|██████████| 1000/1000 [02:41<00:00,  6.19/s]
>>> pd.DataFrame(adata.uns["c2l_label_nhood_enrichment"]["zscore"], index=cats, columns=cats).round(1)
                     Enterocyte  Goblet  Paneth  Stem  TA  Tuft  EEC  TNF_resp
Enterocyte                 41.2   -3.1    -9.8 -12.0 -6.4   0.3 -0.9     -7.7
Goblet                     -3.1   18.6     2.2  -1.4  1.1   0.8  1.5      3.9
Paneth                     -9.8    2.2    27.4  15.3  4.0  -0.2  0.6      1.2
Stem                      -12.0   -1.4    15.3  35.9 12.7  -1.1  0.4      6.8
TA                         -6.4    1.1     4.0  12.7 29.3  -0.5  0.2     11.5
Tuft                        0.3    0.8    -0.2  -1.1 -0.5   4.1  0.1      0.0
EEC                        -0.9    1.5     0.6   0.4  0.2   0.1  3.2     -0.3
TNF_resp                   -7.7    3.9     1.2   6.8 11.5   0.0 -0.3     22.4
```"""),
    A("""Let me read it row by row. The diagonal is strongly positive for every type (41.2 for enterocytes down to 3.2 for EEC), which is what you expect on a grid of 8 µm bins: neighbouring bins often belong to the same cell or to cells of the same type in the same region. The rare types (Tuft, EEC) have small z-scores simply because there are few of them.

The off-diagonal structure is biologically sensible:

- **Stem-Paneth (15.3) and Stem-TA (12.7)** are positive: stem cells sit next to Paneth cells in the crypt, and transit-amplifying cells just above them.
- **Enterocytes are depleted next to the crypt types** (-12.0 with stem, -9.8 with Paneth): they are at the villus-like end.
- **TNF_resp is enriched next to TA (11.5) and stem cells (6.8)** and depleted next to enterocytes (-7.7). That's the interesting one for figure 3: the TNF-responsive state sits in the proliferative compartment, not among differentiated cells.

Two caveats before putting it in a figure:

1. **Argmax labels from deconvolution** hide mixtures. An 8 µm bin at a crypt border can be 50% stem and 50% TA; argmax forces one label. Check that the result holds with a threshold (only bins where the top type has > 0.6 of the abundance) or with segmented cells.
2. **The grid neighbourhood** (8 neighbours) at 8 µm is very local. Repeat with a radius of 50 µm (`coord_type="generic", radius=50`) to see if the TNF_resp-TA association holds at the scale of a few cells.

If both hold on slide 2 as well, it's a solid result."""),
    U("""ok running with the 0.6 threshold and radius 50"""),
    U("""with threshold 0.6: TNF_resp vs TA z = 9.8, vs Stem 5.1, vs Enterocyte -6.2. radius 50: TNF_resp vs TA 8.9. slide 2 similar (TA 10.4)."""),
    A("""That's consistent across both slides, both neighbourhood definitions and the stricter labels. The effect shrinks a little with the threshold (11.5 to 9.8), as expected when the ambiguous border bins are removed, but it stays large.

For the figure I'd show: the spatial map of one slide with TNF_resp bins highlighted, the enrichment heatmap for slide 1 with the 0.6 threshold, and a small bar plot of the TNF_resp vs TA z-score across the four variants (two slides x two neighbourhood definitions). That last panel is the robustness argument reviewers will look for."""),
    U("""good idea, four-variant bar plot it is"""),
    U("""how do I make squidpy plot the spatial map without the H&E image behind it, it's too busy"""),
    A("""Pass `img=False` to the spatial plotting function, and use a categorical palette where only the type you care about stands out:

```python
palette = {c: "#dddddd" for c in adata.obs["c2l_label"].cat.categories}
palette["TNF_resp"] = "#d62728"
sq.pl.spatial_scatter(adata, color="c2l_label", img=False, palette=palette, size=1.2, shape=None)
```

`shape=None` draws points instead of hexagons/squares, which renders much faster for hundreds of thousands of bins."""),
)

SESSIONS.add(
    "student-02", "2026-04-06 10:20",
    U("""We're getting a summer intern: Jonas Peeters, bachelor student from UGent, from 4 May for three months. Tomasz asked me to supervise him too (so two students at once, Ines is still finishing her thesis, her defence is in June). His project: benchmark doublet detection methods on our data. Can you help me scope it so it's doable in 3 months by a bachelor student?"""),
    A("""A benchmark is a good intern project because it's well bounded and useful to the lab. To keep it to three months:

**Scope**
- Three methods, not ten: scDblFinder (what you use now), scrublet (Python, widely used), and DoubletDetection or solo (scvi-tools). Adding more is the classic way benchmarks overrun.
- Two kinds of ground truth:
  1. **Genetic demultiplexing**: if any of your libraries pooled donors, tools like vireo or souporcell identify real heterotypic doublets from SNPs. That's the best ground truth you can have.
  2. **Synthetic doublets**: merge random pairs of high-quality cells and check how many the methods find. Easy to generate, but only tests heterotypic doublets.
- Metrics: AUPRC against the ground truth, and the downstream effect (do clusters or DE results change after removal?).

**Timeline**
- Weeks 1-2: setup (accounts, pixi env, cluster), read two benchmark papers, reproduce the current scDblFinder step.
- Weeks 3-6: run the three methods on 4-6 libraries, build the synthetic doublet sets.
- Weeks 7-10: metrics and downstream effect.
- Weeks 11-12: a short report and a lab-meeting presentation.

**Supervision**
- A 30-minute weekly meeting plus the morning check-ins in the first two weeks, like you did with Ines.
- Pair him with Ines for a day; students explain cluster setup to each other better than we do."""),
    U("""we did pool donors in 4 of the batch 2 libraries so genetic demux is possible! nice"""),
    A("""Then that's the backbone of the benchmark: run vireo with the donor genotypes (or souporcell without them) on those four libraries, and the cross-donor doublets it calls are your ground truth. Keep in mind it only detects doublets between donors; doublets of two cells from the same donor stay invisible, so report the results as recall on heterotypic-by-donor doublets.

You'll need the donors' SNP genotypes, or at least a common SNP panel (e.g. the 1000 Genomes common variants) for souporcell. Check with the hospital whether genotype use is covered by the consent; with patient-derived material it often needs the DPO's OK."""),
    U("""good point, asking the DPO"""),
)

SESSIONS.add(
    "lims-01", "2026-04-09 16:30",
    U("""Tomasz asked how many organoid lines we have in the biobank for the grant report. our sample tracking is a small postgres db. I ran this:

```
biobank=> SELECT tissue, status, count(*) AS n_lines
biobank->   FROM organoid_line
biobank->  WHERE lab = 'vermeulen'
biobank->  GROUP BY tissue, status
biobank->  ORDER BY tissue, status;
     tissue      |  status   | n_lines
-----------------+-----------+---------
 colon           | active    |      11
 colon           | archived  |       4
 small_intestine | active    |      26
 small_intestine | archived  |       9
 small_intestine | failed    |       3
(5 rows)
```

he wants "lines available for new experiments" - is that active only?"""),
    A("""I'd count **active** lines only: 11 colon + 26 small intestine = **37 lines available for new experiments**. Archived lines are frozen but would need thawing and re-expansion (weeks, and not every thaw succeeds), and failed lines can't be used at all.

For the grant report, it's worth giving the full picture in one sentence: "The biobank holds 50 organoid lines (37 active: 26 small intestine, 11 colon; 13 archived)", with the 3 failed lines left out of the total or mentioned separately.

If you want the query to produce that directly:

```sql
SELECT tissue,
       count(*) FILTER (WHERE status = 'active')   AS active,
       count(*) FILTER (WHERE status = 'archived') AS archived,
       count(*) FILTER (WHERE status IN ('active', 'archived')) AS total_banked
  FROM organoid_line
 WHERE lab = 'vermeulen'
 GROUP BY tissue
 ORDER BY tissue;
```"""),
    U("""sent him 37. the FILTER syntax is neat, didn't know postgres had that"""),
    A("""It's standard SQL (since SQL:2003) but Postgres is one of the few databases that supports it; in others you'd write `sum(CASE WHEN status = 'active' THEN 1 ELSE 0 END)`."""),
    U("""and lines per donor? some donors have both colon and small intestine lines"""),
    A("""```sql
SELECT donor_id,
       string_agg(DISTINCT tissue, ', ' ORDER BY tissue) AS tissues,
       count(*) FILTER (WHERE status = 'active') AS active_lines
  FROM organoid_line
 WHERE lab = 'vermeulen'
 GROUP BY donor_id
HAVING count(*) FILTER (WHERE status = 'active') > 0
 ORDER BY donor_id;
```

`string_agg(DISTINCT ...)` lists the tissues per donor in one cell, and the `HAVING` keeps only donors with at least one active line."""),
)

SESSIONS.add(
    "nfcore-01", "2026-04-14 11:50",
    U("""I'm contributing our simpleaf quant module fix upstream to nf-core/modules (the --chemistry handling for GEM-X). Reviewer asked me to rebase on master and now:

```
$ git rebase upstream/master
Auto-merging modules/nf-core/simpleaf/quant/main.nf
CONFLICT (content): Merge conflict in modules/nf-core/simpleaf/quant/main.nf
Auto-merging modules/nf-core/simpleaf/quant/tests/main.nf.test.snap
CONFLICT (content): Merge conflict in modules/nf-core/simpleaf/quant/tests/main.nf.test.snap
error: could not apply 4f1c2d9... simpleaf/quant: pass chemistry for 10x v4 (GEM-X)
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", run "git rebase --continue".
```

the snap file is huge and machine generated, how do i deal with it"""),
    A("""Don't resolve the snapshot by hand. Snapshots are generated by nf-test, so the right move is to resolve the code conflict, take either side of the snapshot, and regenerate it:

```
# 1. resolve main.nf by hand (that's the real change)
$EDITOR modules/nf-core/simpleaf/quant/main.nf

# 2. take upstream's snapshot for now
git checkout --theirs modules/nf-core/simpleaf/quant/tests/main.nf.test.snap
git add modules/nf-core/simpleaf/quant/main.nf modules/nf-core/simpleaf/quant/tests/main.nf.test.snap
git rebase --continue

# 3. regenerate the snapshot with your change
nf-core modules test simpleaf/quant --update
git add modules/nf-core/simpleaf/quant/tests/main.nf.test.snap
git commit -m "simpleaf/quant: update snapshot"
```

Careful with `--theirs` during a rebase: the meaning is swapped compared with a merge. In a rebase, "ours" is the branch you're rebasing onto (upstream/master) and "theirs" is your commit being replayed. Here you want upstream's snapshot as a clean starting point, which is `--ours`. So step 2 should be `git checkout --ours`. Sorry for the confusion, let me restate: during `git rebase`, use `--ours` to take upstream's version."""),
    U("""lol ok, --ours. main.nf conflict was just that someone added a `def args2` line above mine. rebased."""),
    U("""nf-core modules test fails now though:

```
Test Process SIMPLEAF_QUANT

  Test [b3d1a6e0] 'human - fastq - 10x_v4' FAILED (41.233s)

  Assertion failed:

  1 of 3 assertions failed

  java.lang.RuntimeException: Different Snapshot:
  [                                                       [
      {                                                       {
          "versions": [                                           "versions": [
              "versions.yml:md5,2b1c4e7a0d5f6e9b8a3c1d2e4f5a6b7c"     "versions.yml:md5,9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
          ]                                                       ]
      }                                                       }
  ]                                                       ]

  Nextflow stdout:
  FAILED (41.233s)
```"""),
    A("""That's the expected failure: only the `versions.yml` checksum differs, because the upstream master bumped the simpleaf container version since your branch was made, and the snapshot you took with `--ours` still has the old hash recorded against the new code (or vice versa). Running with `--update` rewrites the snapshot:

```
nf-core modules test simpleaf/quant --update
```

Then look at the snapshot diff with `git diff` before committing: only the versions.yml md5 should change. If the output matrices' md5s change too, something in your chemistry change altered the counts for the existing test, and the reviewer will want to know why."""),
    U("""only the versions md5 changed. pushed, reviewer approved 🎉"""),
)

SESSIONS.add(
    "run-04", "2026-04-27 08:25",
    U("""antwerp 10 miles yesterday: finished in 1:21:40!! the kennedy tunnel climb was brutal like you said. average 5:04/km. now, boring stuff: how do I merge two AnnData objects that have different .var (one has gene_symbols column, the other doesn't) without losing the column"""),
    A("""Well done, 1:21:40 over 16.1 km is a strong first 10 Miles!

For the AnnData question: `anndata.concat` drops `.var` columns by default. Use `merge=`:

```python
import anndata as ad

combined = ad.concat(
    [adata_a, adata_b],
    join="inner",          # keep genes present in both
    merge="first",         # for each var column, take the first non-missing value
    label="source",
    keys=["organoid", "tissue"],
)
```

`merge="same"` keeps only columns that are identical in all objects; `merge="first"` takes the value from the first object that has the column, which is what you want when only one of them has `gene_symbols`. Make sure both use the same index (Ensembl IDs), otherwise the inner join will silently drop genes named differently."""),
    U("""merge=first worked"""),
    U("""also my partner wants to do the 10 miles next year, they've never run. realistic?"""),
    A("""Very realistic with a year to go. A couch-to-5K programme (about 9 weeks of run-walk intervals three times a week), then a few months of building to 10 km, then a 10-12 week 10-mile plan. The main risk for new runners is adding distance too fast; the usual guideline is no more than about 10% more weekly volume per week. Running some of the easy runs together is also the best motivation."""),
    U("""sending them the couch to 5k link"""),
)

SESSIONS.add(
    "paper-03", "2026-04-29 18:55",
    U("""SUBMITTED. the organoid TNF atlas paper went to Genome Biology this afternoon, a day before our internal deadline. preprint goes to bioRxiv tomorrow. now I need to make the code and data availability statement solid. repos: organoid-atlas-nf (pipeline) and atlas-figures (figure scripts). what's the standard?"""),
    A("""Congratulations on submitting! For Genome Biology (and most journals now), a solid availability section has:

**Code**
- Each repository archived on Zenodo with a DOI for the exact version used (`v1.0.0` for the pipeline, a tagged release for the figure scripts). Connecting GitHub to Zenodo makes a DOI per release automatically.
- A licence in each repository (MIT or GPL-3.0 are common for academic code).
- The pipeline's README names the container images and the command that produced the atlas.

**Data**
- Raw reads: EGA accession (controlled access), with the data access committee named.
- Processed data: GEO accession with the count matrices and metadata; the frozen `atlas_v1.h5ad` on Zenodo or CELLxGENE for browsing.
- Public datasets you reused: list all accessions.

**Statement example**
"Raw sequencing data are available from EGA under accession EGAS000010xxxxx, subject to approval by the KU Leuven Data Access Committee. Processed count matrices are available from GEO (GSE2xxxxx). The analysis pipeline (https://github.com/vermeulen-lab/organoid-atlas-nf, DOI 10.5281/zenodo.xxxxxxx) and figure code (DOI 10.5281/zenodo.yyyyyyy) are available under the MIT licence."

Reviewers increasingly try to run the code, so make sure the figure scripts run from the Zenodo archive alone."""),
    U("""ok adding zenodo integration tonight. then sleeping for a week"""),
    U("""which licence for the figure scripts though, MIT or GPL? the pipeline is MIT already (nf-core style)"""),
    A("""MIT for both is the simplest: the same licence across the two repositories, compatible with nf-core (MIT), and it lets anyone reuse the figure code in their own analyses without licence questions. GPL makes sense if you want derivative tools to stay open, which matters less for figure scripts. Check with KU Leuven's tech transfer office whether the FWO/ERC terms require anything specific; usually they don't for code accompanying a paper."""),
    U("""MIT then"""),
)

SESSIONS.add(
    "pi-02", "2026-05-04 09:40",
    U("""Lab news again. Hilde came back from Stanford early, last week instead of end of June (family reasons), so as of today I report to her directly again. And Tomasz got an ERC Starting Grant! He's leaving to start his own group at Utrecht in September. Hilde prefers a meeting every two weeks instead of the written weekly updates, so I'm dropping those. Can you help me prepare a handover doc for the stuff Tomasz was co-owning with me? Main items: the spatial analysis, Jonas' supervision (starts today), and the reviewer response if it comes before September."""),
    A("""Congratulations to Tomasz. A handover doc for the shared work could look like this:

**1. Spatial analysis (Visium HD, two slides)**
- State: cell2location deconvolution done on both slides, neighbourhood enrichment robust across thresholds and radii.
- Decisions already made: 8 µm bins, 0.6 abundance threshold, radius 50 µm.
- Open: whether to segment nuclei for a cell-level version; Tomasz's opinion on the figure 3 layout.
- Where things are: notebooks under `analysis/spatial/`, results on `$VSC_DATA/atlas/spatial/`.

**2. Jonas' internship (4 May - 31 July)**
- Project: doublet detection benchmark (scDblFinder, scrublet, solo), genetic demultiplexing ground truth on the four pooled batch 2 libraries.
- Open: DPO's answer on genotype use; who attends his final presentation if Tomasz is gone.
- Weekly meeting: you; Hilde joins monthly.

**3. Reviewer response (expected June-July)**
- Tomasz wrote the donor variability analysis; ask him to draft answers for any figure 3 questions before he leaves and to stay reachable by email.
- Hilde signs off.

**4. Accounts and access**
- Anything in Tomasz's name: cluster project credits, the AWS account's billing alerts, the GitHub organisation admin role. Transfer them before September, not after.

Ask Tomasz to read it and add anything missing in a 30-minute call this week."""),
    U("""good call on the accounts, the AWS root account email is his"""),
    A("""Then that's the first item to fix: change the root account's email to a lab mailbox (not a personal address), turn on MFA with a device the lab keeps, and store the recovery details in the lab's password manager. Losing access to a root account when someone leaves is painful to recover from, since AWS support requires proof of ownership."""),
    U("""root email moved to the lab mailbox, MFA on the lab's yubikey. jonas is here, setting up his account"""),
)

SESSIONS.add(
    "renew-01", "2026-05-12 15:00",
    U("""Good news: my contract got extended until 30 September 2028, it's now funded on Hilde's new FWO project on organoid drug screening. so I'm staying at least two more years. the new project means high-content imaging data next to single-cell, which I've never done. where do I start?"""),
    A("""Congratulations on the extension! High-content imaging will feel different from sequencing, but a lot carries over (QC, batch effects, plate layouts as experimental design). A starting path:

**Concepts (first month)**
- Image analysis basics: segmentation, feature extraction, illumination correction. The "Cell Painting" literature is the best entry point for drug screening; read the Cell Painting protocol paper and the JUMP consortium papers.
- Plate effects: edge effects, row/column effects, and how controls are distributed across plates, the imaging equivalent of batch effects.

**Tools**
- CellProfiler for classic pipelines (segmentation + thousands of features per cell); it runs headless on the cluster.
- For organoids specifically, 3D segmentation: Cellpose (with 3D mode) or StarDist.
- Python side: `scikit-image`, `napari` for looking at images, `pycytominer` for the feature processing (normalisation, feature selection, aggregation per well).
- Storage: OME-Zarr for large images; imaging data grows much faster than sequencing data, so talk to the VSC about storage early.

**Project**
- Ask the imaging facility for one pilot plate with known positive controls, and build the pipeline end to end on it before the real screen starts.

Your single-cell skills transfer directly: per-well profiles are like pseudobulk, and the same normalisation and dimensionality reduction ideas apply."""),
    U("""cell painting papers, noted. thanks!"""),
    U("""also one quick thing, how do I check how much of the lp_vermeulen credits are left"""),
    A("""On the VSC clusters, use `sam-balance` on a login node:

```
$ sam-balance
```

It lists each project you have access to with the remaining credits. `sam-statement -A lp_vermeulen` gives the transactions (which jobs consumed how much), which is handy for the grant report."""),
    U("""lp_vermeulen has 184k credits left, plenty"""),
)

SESSIONS.add(
    "review-01", "2026-05-27 13:10",
    U("""Reviews are in! Genome Biology: major revision. Reviewer 1 is happy, just wants clarification of the CellBender settings. Reviewer 2 is the tough one:

> The authors claim that TNF-responsive cells localise to the proliferative compartment, but the spatial analysis relies on deconvolution of 8 µm bins from only two donors. I would like to see (a) validation by an orthogonal method such as immunofluorescence or smFISH for a TNF target gene together with a proliferation marker, and (b) an analysis showing that the result is not driven by one donor.

we have 90 days. (b) I can do, (a) needs wet lab. how do I structure the response letter?"""),
    A("""Major revision with one happy reviewer is a good outcome. For the response letter:

**Structure**
1. A short cover paragraph thanking the reviewers and summarising the main changes (new validation, donor analysis, clarified methods).
2. Then every reviewer comment quoted in full, in order, each followed by your response and the exact change with page and line numbers. Use a different colour or indentation for your answers.
3. Never skip a comment, even small ones; "We have corrected this (line 212)" is fine.

**For Reviewer 2's points**
- **(b) donor robustness**: run the neighbourhood enrichment per slide (already done: TA z = 9.8 on slide 1 and 10.4 on slide 2) and add a leave-one-donor-out analysis on the single-cell side for the TNF response scores. Show both in a new supplementary figure. With only two spatial donors, say so plainly and don't overclaim.
- **(a) orthogonal validation**: this is the strongest request. smFISH or RNAscope for a TNF target (e.g. *CXCL8* or *TNFAIP3*) together with *MKI67* on organoid sections from a few donors, quantified as co-localisation. Talk to the wet lab now; 90 days is enough if sections are cut in the next two weeks.
- If the wet-lab validation is impossible in time, the fallback is to soften the claim ("associated with" rather than "localise to") and explain why, but reviewers rarely accept that for a central claim.

**Reviewer 1**: paste the exact CellBender command and parameters into the methods, and the version.

Start a shared document with all comments now and assign each to a person with a date; with Tomasz leaving in September, give him the donor variability answers first."""),
    U("""Hilde says the wet lab can do RNAscope for TNFAIP3 + MKI67 on 4 donors, sections cut next week"""),
    A("""Perfect, that's exactly the validation Reviewer 2 asked for, and four donors address the donor question too. For the quantification, plan it now so it's not an afterthought: segment nuclei (Cellpose), count dots per cell per channel, and report the fraction of MKI67+ cells that are TNFAIP3-high vs the fraction among MKI67- cells, per donor, with and without TNF. Pre-register the threshold for "high" before you see the images, and report it in the methods."""),
    U("""pre-registering the threshold is a good idea. ok, writing the response skeleton now"""),
    U("""last one: reviewer 1 wants "the exact CellBender settings". I ran with:

```
cellbender remove-background --input raw_feature_bc_matrix.h5 --output cb.h5 --cuda --expected-cells 8000 --total-droplets-included 25000 --fpr 0.01 --epochs 150
```

but expected-cells differed per sample. how do I write that up without a table of 40 rows?"""),
    A("""Describe the rule instead of the values, and put the per-sample values in a supplementary table that already exists (the sample QC table):

"Ambient RNA was removed with CellBender v0.3.2 (`remove-background`, 150 epochs, FPR 0.01) on GPU. For each library, `--expected-cells` was set to the number of cells called by simpleaf and `--total-droplets-included` to about three times that number (per-library values in Supplementary Table 2)."

That answers the reviewer precisely, and the full command goes into the pipeline repository, which the methods already cite."""),
)


QUESTIONS: list[Question] = [
    ("ssu-01", "single-session-user", "Where and when did the user take the Nextflow training course?",
     "In Barcelona, the Seqera Nextflow training, Tuesday 18 to Thursday 20 November 2025 (paid from the lab's "
     "training budget).",
     {"course-01": ["off to Barcelona next week for the Seqera Nextflow training"]}),
    ("ssu-02", "single-session-user", "What is the name of my sister's baby?",
     "Noor (a girl, born on 5 March 2026 in Utrecht).",
     {"niece-01": ["a girl called Noor"]}),
    ("ssu-03", "single-session-user", "Why did the lab move its pipeline from Snakemake to Nextflow?",
     "The genomics core facility switched to nf-core/scrnaseq and Hilde wanted the lab on the same framework, so the "
     "core could run the lab's pipeline for other groups; nf-core also gives tested modules.",
     {"nf-01": ["the genomics core switched to nf-core/scrnaseq"]}),
    ("ssu-04", "single-session-user", "What was wrong with the key I first used to encrypt the raw reads for EGA?",
     "It was a PGP key taken from an old wiki page, not a Crypt4GH public key; the new key from EGA's site worked.",
     {"sec-01": ["it was a PGP key from an old wiki page"]}),
    ("ssu-05", "single-session-user", "Where did I spend the Christmas holidays of 2025?",
     "In Madeira with their partner, 22 December 2025 to 2 January 2026, doing levada walks.",
     {"holiday-01": ["flying to Madeira on Monday the 22nd"]}),
    ("ssu-06", "single-session-user", "What peak memory (MaxRSS) did the STARsolo job for ORG03 reach on the cluster?",
     "38.9G (it finished in 71 minutes with the 48000 MB request).",
     {"snake-01": ["MaxRSS 38.9G"]}),
    ("ssu-07", "single-session-user",
     "How long did the first full Nextflow run of the 24 batch 1 samples take on the cluster?",
     "3 h 12 min 5 s (412.6 CPU hours), completed on 26 November 2025.",
     {"nf-02": ["Duration    : 3h 12m 5s"]}),
    ("ssu-08", "single-session-user", "How much did EBS volumes cost on the user's October 2025 AWS bill?",
     "€96.75 (of €312 in all; the launch template had 500 GB gp3 volumes).",
     {"cloud-01": ["EBS volumes                  €96.75"]}),
    ("ssu-09", "single-session-user", "How many active small-intestine organoid lines does my lab's biobank hold?",
     "26 (plus 11 active colon lines: 37 available for new experiments).",
     {"lims-01": ["small_intestine | active    |      26"]}),
    ("ssa-01", "single-session-assistant",
     "By how much did raising the minimum genes per cell to 500 reduce the kept cells, according to the assistant?",
     "8,553 cells, about 5.3% of the previously kept cells (ORG03 lost the most, 18.8%).",
     {"qc-02": ["about 5.3% of the previously kept cells"]}),
    ("ssa-02", "single-session-assistant", "What batch size did you recommend for training scVI on the A100?",
     "1024 (instead of the default 128).",
     {"gpu-01": ["use `batch_size=1024`"]}),
    ("ssa-03", "single-session-assistant",
     "How much memory did the assistant suggest requesting for the cell2location jobs that ran out of memory?",
     "96G (#SBATCH --mem=96G), together with filtering genes and exporting the posterior in batches.",
     {"slurm-01": ["`#SBATCH --mem=96G`"]}),
    ("ssa-04", "single-session-assistant",
     "Which Dutch sentence did you give me for 'My supervisor wants a report every Friday'?",
     "Mijn begeleider wil elke vrijdag een verslag.",
     {"dutch-01": ["**Mijn begeleider wil elke vrijdag een verslag.**"]}),
    ("ssa-05", "single-session-assistant", "Which Visium HD bin size did the assistant suggest starting with?",
     "8 µm bins (2 µm too sparse, 16 µm mixes neighbouring cells).",
     {"paper-02": ["start with 8 µm bins"]}),
    ("ssa-06", "single-session-assistant",
     "What SSH host and port did you suggest for reaching GitHub through my phone hotspot?",
     "ssh.github.com on port 443.",
     {"move-02": ["Hostname ssh.github.com"]}),
    ("ms-01", "multi-session",
     "How many organoid libraries did the user receive from the genomics core across both sequencing runs?",
     "40: 24 in the first batch (September 2025) and 16 in the second (January 2026).",
     {"batch-01": ["24 samples on one NovaSeq X run"], "batch-02": ["another 16 libraries"]}),
    ("ms-02", "multi-session", "How much did I spend on AWS in October and December 2025 together?",
     "€499 (€312 in October and €187 in December).",
     {"cloud-01": ["The October bill so far is €312"], "cloud-02": ["December bill came to €187"]}),
    ("ms-03", "multi-session", "How many GPUs does the lab workstation have now, and which?",
     "Four: two A100 40GB and two L40S 48GB (added in March 2026).",
     {"gpu-01": ["two A100 40GB cards"], "gpu-02": ["we added two L40S cards"]}),
    ("ms-04", "multi-session", "How many public datasets did the user pull in to compare with the lab's organoids?",
     "Five: three GEO organoid series (GSE148366, GSE165318, GSE201421) and two primary tissue studies (the Gut "
     "Cell Atlas epithelial subset and GSE185224).",
     {"geo-01": ["I picked three GEO series"], "geo-02": ["I pulled two more public studies"]}),
    ("ms-05", "multi-session", "Which students have I supervised, and in what roles?",
     "Ines Moreau, a master student (thesis on the TNF response, from October 2025), and Jonas Peeters, a UGent "
     "bachelor student on a summer internship from 4 May 2026 (doublet detection benchmark).",
     {"student-01": ["master student starting Monday, Ines Moreau"],
      "student-02": ["Jonas Peeters, bachelor student from UGent"]}),
    ("ms-06", "multi-session", "What were the user's finishing times in the two road races they ran?",
     "48:12 in the Leuven 10 km (19 October 2025) and 1:21:40 in the Antwerp 10 Miles (26 April 2026).",
     {"run-02": ["ran the 10k yesterday!! 48:12"], "run-04": ["finished in 1:21:40"]}),
    ("ms-07", "multi-session",
     "Which places outside Belgium did I travel to during these months, and why?",
     "Barcelona (Nextflow training, November 2025), Madeira (Christmas holiday) and Utrecht (to visit their "
     "sister's newborn, March 2026).",
     {"course-01": ["off to Barcelona next week"], "holiday-01": ["flying to Madeira"],
      "niece-01": ["my sister in Utrecht had a baby"]}),
    ("ku-01", "knowledge-update", "Which workflow manager does the user's pipeline run on now?",
     "Nextflow (ported from Snakemake from November 2025).",
     {"intro-01": ["The current pipeline is a Snakemake workflow"],
      "nf-01": ["we're moving the pipeline from Snakemake to Nextflow"]}),
    ("ku-02", "knowledge-update", "Which city do I live in now?",
     "Mechelen (moved on 14 February 2026; before that Kessel-Lo, Leuven).",
     {"intro-01": ["I live in Kessel-Lo"], "move-01": ["we're moving to Mechelen"],
      "move-02": ["moved on saturday"]}),
    ("ku-03", "knowledge-update", "Who is the user's day-to-day supervisor now?",
     "Hilde Vermeulen again, since 4 May 2026 (she came back early from Stanford); Tomasz Wójcik supervised them "
     "during her sabbatical from January.",
     {"pi-01": ["Tomasz Wójcik (the senior postdoc) will be my day-to-day supervisor"],
      "pi-02": ["as of today I report to her directly again"]}),
    ("ku-04", "knowledge-update", "What minimum number of genes per cell does my QC use now?",
     "500 (it was 200 until January 2026), with CellBender run before scanpy.",
     {"qc-01": ["Staying with 200 for now"], "qc-02": ["raise it to min_genes = 500"]}),
    ("ku-05", "knowledge-update", "Which tool does the user's pipeline use by default for quantification?",
     "simpleaf (alevin-fry), since February 2026; STARsolo remains an option (--aligner starsolo).",
     {"snake-01": ["We use STARsolo for quantification"], "quant-01": ["simpleaf is now our default quantifier"]}),
    ("ku-06", "knowledge-update", "What do we use to manage the lab's software environments now?",
     "pixi (one lock file for Linux and macOS), which replaced mamba in January 2026.",
     {"env-01": ["we stick with mamba for now"], "env-02": ["I replaced mamba with pixi"]}),
    ("ku-07", "knowledge-update", "What was the internal deadline for the organoid atlas paper draft, as last set?",
     "30 April 2026 (moved from 15 March to add the Visium HD spatial data).",
     {"paper-01": ["internal deadline for a full draft is 15 March"], "paper-02": ["moved from 15 March to 30 April"]}),
    ("ku-08", "knowledge-update", "On which evenings is my Dutch course now?",
     "Monday and Wednesday evenings at CVO Mechelen (before the move: Tuesday and Thursday at CVO Leuven).",
     {"dutch-01": ["Tuesday and Thursday evenings 18:30-21:30"], "dutch-02": ["now Monday and Wednesday evenings"]}),
    ("ku-09", "knowledge-update", "How often does the user report progress to their supervisor now, and how?",
     "A meeting with Hilde every two weeks (from May 2026); the written weekly updates for Tomasz were dropped.",
     {"pi-01": ["he wants weekly written updates"], "pi-02": ["Hilde prefers a meeting every two weeks"]}),
    ("tmp-01", "temporal-reasoning",
     "How many days passed between starting the Nextflow port and its first full successful run on the cluster?",
     "23 days (3 to 26 November 2025).",
     {"nf-01": ["I started porting today"], "nf-02": ["first full run of the nextflow version on genius"]}),
    ("tmp-02", "temporal-reasoning",
     "Which happened first: my move to Mechelen or the second sequencing batch coming back?",
     "The second batch (19 January 2026), almost four weeks before the move (14 February 2026).",
     {"batch-02": ["second run is back from the genomics core"], "move-01": ["moving day is Saturday 14 February"]}),
    ("tmp-03", "temporal-reasoning", "How long did the user's physiotherapy for the wrist last?",
     "About six and a half weeks: from 10 February to Friday 27 March 2026 (45 days), twice a week.",
     {"wrist-01": ["physio twice a week starting tomorrow"], "wrist-02": ["physio finished on Friday"]}),
    ("tmp-04", "temporal-reasoning", "How many days after submitting the paper did the reviews arrive?",
     "28 days (submitted 29 April 2026, reviews on 27 May 2026: major revision).",
     {"paper-03": ["went to Genome Biology this afternoon"], "review-01": ["Reviews are in!"]}),
    ("tmp-05", "temporal-reasoning", "How old was the user's niece when the user ran the Antwerp 10 Miles?",
     "52 days, about seven and a half weeks (born 5 March, race on 26 April 2026).",
     {"niece-01": ["had a baby this morning"], "run-04": ["antwerp 10 miles yesterday"]}),
    ("tmp-06", "temporal-reasoning", "Which came first: the Nextflow training or the pipeline's first full Nextflow run?",
     "The training (18-20 November 2025), about a week before the first full run (26 November 2025).",
     {"course-01": ["Tue 18 to Thu 20 Nov"], "nf-02": ["IT RUNS"]}),
]


if __name__ == "__main__":
    write(OUT, SESSIONS, questions(SESSIONS, QUESTIONS, name="heldout8", seed=SEED, question_date=QUESTION_DATE,
                                   others=OTHERS))
