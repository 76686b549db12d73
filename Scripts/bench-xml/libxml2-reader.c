// libxml2's pull reader (xmlTextReader) over a file, every element and attribute visited and copied, as a
// libxml2-backed cdstore reader would: thread CPU time per read, median of N.
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
    char *buf = malloc(n); fread(buf, 1, n, f); fclose(f);
    int runs = argc > 2 ? atoi(argv[2]) : 100;
    if (runs < 1 || runs > 1000) runs = 100;
    double times[1000]; long count = 0;
    for (int r = 0; r < runs; r++) {
        double start = cpu();
        xmlTextReaderPtr reader = xmlReaderForMemory(buf, n, "contents", NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
        count = 0;
        while (xmlTextReaderRead(reader) == 1) {
            if (xmlTextReaderNodeType(reader) != 1) continue;
            xmlChar *name = xmlTextReaderName(reader); count++; xmlFree(name);
            while (xmlTextReaderMoveToNextAttribute(reader) == 1) {
                xmlChar *a = xmlTextReaderName(reader), *v = xmlTextReaderValue(reader);
                xmlFree(a); xmlFree(v);
            }
        }
        xmlFreeTextReader(reader);
        times[r] = cpu() - start;
    }
    qsort(times, runs, sizeof(double), cmp);
    printf("%-34s %5ld elements  CPU median %.3f ms, min %.3f ms (%d runs)\n", "libxml2 xmlTextReader (C)", count, times[runs / 2], times[0], runs);
    return 0;
}
